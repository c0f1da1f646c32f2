/* test_ep_manifest.c: the import manifest as the execution provider reads it (ep/manifest.c;
   docs/cli.md, "The manifest", version 2): a two-kernel manifest made here into every field
   (nodes with their inputs and outputs, parameters with shapes, a per-channel one with its
   tensor_shape, literals' bits, baked constants, outputs, scope, the "measured" member), and
   each refusal with its message: version 1, another format, a missing or mistyped member, an
   unknown dtype, bad bits, a kernel without nodes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "manifest.h"

/* Two kernels: "scaled_relu" (Relu <- Add <- Mul, a literal 1.0f, a per-channel bias, timed),
   and "masked" in a sub-graph (Where with two baked constants, an omitted input, no timing). */
static const char MANIFEST[] =
    "{\n"
    "  \"format\": \"wherec-import-manifest\",\n"
    "  \"version\": 2,\n"
    "  \"model\": \"m.onnx\", \"spec\": \"m.where\", \"graph\": \"g\", \"opset\": 17,\n"
    "  \"kernels\": [\n"
    "    {\n"
    "      \"name\": \"scaled_relu\",\n"
    "      \"scope\": null,\n"
    "      \"nodes\": [\n"
    "        {\"index\": 2, \"op_type\": \"Relu\", \"name\": \"r\", \"inputs\": [\"s\"], \"outputs\": [\"y\"]},\n"
    "        {\"index\": 1, \"op_type\": \"Add\", \"name\": \"\", \"inputs\": [\"m\", \"bias\"], \"outputs\": [\"s\"]},\n"
    "        {\"index\": 0, \"op_type\": \"Mul\", \"name\": \"\", \"inputs\": [\"x\", \"one\"], \"outputs\": [\"m\"]}\n"
    "      ],\n"
    "      \"extents\": [{\"name\": \"N\", \"dim\": \"batch\"}],\n"
    "      \"params\": [\n"
    "        {\"name\": \"x\", \"tensor\": \"x\", \"from\": \"input\", \"constant\": false, \"dtype\": \"float\", \"shape\": [\"N\", 4, 2, 2]},\n"
    "        {\"name\": \"bias\", \"tensor\": \"bias\", \"from\": \"initializer\", \"constant\": true, \"dtype\": \"float\", \"shape\": [4, 1, 1], \"tensor_shape\": [4]}\n"
    "      ],\n"
    "      \"literals\": [\n"
    "        {\"tensor\": \"one\", \"dtype\": \"float\", \"value\": \"1.0\", \"bits\": \"0x3f800000\"}\n"
    "      ],\n"
    "      \"baked\": [],\n"
    "      \"outputs\": [\n"
    "        {\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [\"N\", 4, 2, 2]}\n"
    "      ],\n"
    "      \"measured\": {\"faster\": true, \"ort_us\": 2.5, \"wherec_us\": 1.0}\n"
    "    },\n"
    "    {\n"
    "      \"name\": \"masked\",\n"
    "      \"scope\": {\"title\": \"sub-graph 'then_branch' of If 'if0'\", \"path\": []},\n"
    "      \"nodes\": [\n"
    "        {\"index\": 0, \"op_type\": \"Where\", \"name\": \"w\", \"inputs\": [\"keep\", \"table\", \"fill\", \"\"], \"outputs\": [\"z\", \"\"]}\n"
    "      ],\n"
    "      \"extents\": [],\n"
    "      \"params\": [\n"
    "        {\"name\": \"keep\", \"tensor\": \"keep\", \"from\": \"outer\", \"constant\": false, \"dtype\": \"bool\", \"shape\": [3]}\n"
    "      ],\n"
    "      \"literals\": [\n"
    "        {\"tensor\": \"h\", \"dtype\": \"float16\", \"value\": \"-2.0\", \"bits\": \"0xc000\"},\n"
    "        {\"tensor\": \"big\", \"dtype\": \"int64\", \"value\": \"-1\", \"bits\": \"0xffffffffffffffff\"}\n"
    "      ],\n"
    "      \"baked\": [\n"
    "        {\"name\": \"table_c1\", \"tensor\": \"table\", \"dtype\": \"int64\", \"shape\": [3]},\n"
    "        {\"name\": \"fill_c2\", \"tensor\": \"fill\", \"dtype\": \"int64\", \"shape\": []}\n"
    "      ],\n"
    "      \"outputs\": [\n"
    "        {\"name\": \"out\", \"tensor\": \"z\", \"dtype\": \"int64\", \"shape\": null}\n"
    "      ]\n"
    "    }\n"
    "  ]\n"
    "}\n";

static char err[512];

/* MANIFEST with the first occurrence of from replaced by to (malloc'd). */
static char *edited(const char *from, const char *to) {
  const char *at = strstr(MANIFEST, from);
  if (!at) fail_msg("'%s' is not in the manifest", from);
  size_t head = (size_t)(at - MANIFEST), n = strlen(MANIFEST) - strlen(from) + strlen(to);
  char  *s = malloc(n + 1);
  assert_non_null(s);
  memcpy(s, MANIFEST, head);
  strcpy(s + head, to);
  strcat(s, at + strlen(from));
  return s;
}

/* MANIFEST edited so is refused with a message equal to want (or holding it, contains). */
static void refused_as(const char *from, const char *to, const char *want, bool contains) {
  char       *text = edited(from, to);
  ep_manifest m;
  memset(&m, 0x5a, sizeof m);
  if (ep_manifest_parse(text, strlen(text), &m, err, sizeof err)) {
    ep_manifest_free(&m);
    fail_msg("'%s' as '%s' was accepted", from, to);
  }
  if (contains ? !strstr(err, want) : strcmp(err, want) != 0)
    fail_msg("'%s' as '%s': message '%s', expected '%s'", from, to, err, want);
  /* nothing is left behind */
  assert_null(m.doc);
  assert_null(m.kernels);
  assert_int_equal(m.n_kernels, 0);
  assert_null(m.blocks_);
  free(text);
}

static void refused(const char *from, const char *to, const char *want) { refused_as(from, to, want, false); }

static void test_manifest_reads_both_kernels_into_their_fields(void **state) {
  (void)state;
  ep_manifest m;
  assert_true(ep_manifest_parse(MANIFEST, strlen(MANIFEST), &m, err, sizeof err));
  assert_non_null(m.doc);
  assert_int_equal(m.n_kernels, 2);

  const ep_mkernel *k = &m.kernels[0];
  assert_string_equal(k->name, "scaled_relu");
  assert_false(k->in_subgraph);
  assert_int_equal(k->n_nodes, 3);
  const char *ops[] = {"Relu", "Add", "Mul"};
  for (int r = 0; r < 3; r++) assert_string_equal(k->nodes[r].op_type, ops[r]);
  assert_int_equal(k->nodes[0].n_inputs, 1);
  assert_string_equal(k->nodes[0].inputs[0], "s");
  assert_int_equal(k->nodes[0].n_outputs, 1);
  assert_string_equal(k->nodes[0].outputs[0], "y");
  assert_int_equal(k->nodes[1].n_inputs, 2);
  assert_string_equal(k->nodes[1].inputs[0], "m");
  assert_string_equal(k->nodes[1].inputs[1], "bias");
  assert_string_equal(k->nodes[2].inputs[0], "x");
  assert_string_equal(k->nodes[2].inputs[1], "one");
  assert_string_equal(k->nodes[2].outputs[0], "m");

  assert_int_equal(k->n_params, 2);
  assert_string_equal(k->params[0].name, "x");
  assert_string_equal(k->params[0].tensor, "x");
  assert_int_equal(k->params[0].dtype, WC_FLOAT);
  assert_int_equal(k->params[0].rank, 4);
  assert_int_equal(k->params[0].dims[0], -1); /* N: symbolic */
  assert_int_equal(k->params[0].dims[1], 4);
  assert_int_equal(k->params[0].dims[2], 2);
  assert_int_equal(k->params[0].dims[3], 2);
  assert_int_equal(k->params[0].pad, 0);
  /* per-channel: [4] read as [4,1,1] */
  assert_string_equal(k->params[1].name, "bias");
  assert_int_equal(k->params[1].rank, 3);
  assert_int_equal(k->params[1].dims[0], 4);
  assert_int_equal(k->params[1].dims[1], 1);
  assert_int_equal(k->params[1].dims[2], 1);
  assert_int_equal(k->params[1].pad, 2);

  assert_int_equal(k->n_literals, 1);
  assert_string_equal(k->literals[0].tensor, "one");
  assert_int_equal(k->literals[0].dtype, WC_FLOAT);
  assert_true(k->literals[0].bits == 0x3f800000u);
  assert_int_equal(k->n_baked, 0);

  assert_int_equal(k->n_outputs, 1);
  assert_string_equal(k->outputs[0].name, "out");
  assert_string_equal(k->outputs[0].tensor, "y");
  assert_int_equal(k->outputs[0].dtype, WC_FLOAT);
  assert_int_equal(k->outputs[0].rank, 4);
  assert_int_equal(k->outputs[0].dims[0], -1);

  assert_true(k->measured);
  assert_true(k->faster);
  assert_true(k->ort_us == 2.5);
  assert_true(k->wherec_us == 1.0);

  k = &m.kernels[1];
  assert_string_equal(k->name, "masked");
  assert_true(k->in_subgraph);
  assert_int_equal(k->n_nodes, 1);
  assert_string_equal(k->nodes[0].op_type, "Where");
  assert_int_equal(k->nodes[0].n_inputs, 4);
  assert_string_equal(k->nodes[0].inputs[3], ""); /* an omitted optional input */
  assert_int_equal(k->nodes[0].n_outputs, 2);
  assert_string_equal(k->nodes[0].outputs[1], "");
  assert_int_equal(k->n_params, 1);
  assert_int_equal(k->params[0].dtype, WC_BOOL);
  assert_int_equal(k->params[0].rank, 1);
  assert_int_equal(k->params[0].dims[0], 3);
  assert_int_equal(k->n_literals, 2);
  assert_int_equal(k->literals[0].dtype, WC_FLOAT16);
  assert_true(k->literals[0].bits == 0xc000u);
  assert_int_equal(k->literals[1].dtype, WC_INT64);
  assert_true(k->literals[1].bits == UINT64_MAX);
  assert_int_equal(k->n_baked, 2);
  assert_string_equal(k->baked_tensors[0], "table");
  assert_string_equal(k->baked_names[0], "table_c1");
  assert_string_equal(k->baked_tensors[1], "fill");
  assert_string_equal(k->baked_names[1], "fill_c2");
  assert_int_equal(k->n_outputs, 1);
  assert_string_equal(k->outputs[0].tensor, "z");
  assert_int_equal(k->outputs[0].dtype, WC_INT64);
  assert_int_equal(k->outputs[0].rank, -1); /* "shape": null */
  assert_false(k->measured);
  assert_false(k->faster);

  ep_manifest_free(&m);
  assert_null(m.doc);
  assert_null(m.kernels);
  ep_manifest_free(&m); /* twice is harmless */
}

static void test_manifest_reads_a_slower_measurement_and_an_empty_kernel_list(void **state) {
  (void)state;
  char       *text = edited("{\"faster\": true, \"ort_us\": 2.5, \"wherec_us\": 1.0}",
                            "{\"faster\": false, \"ort_us\": 1e-1, \"wherec_us\": 3}");
  ep_manifest m;
  assert_true(ep_manifest_parse(text, strlen(text), &m, err, sizeof err));
  assert_true(m.kernels[0].measured);
  assert_false(m.kernels[0].faster);
  assert_true(m.kernels[0].ort_us == 0.1);
  assert_true(m.kernels[0].wherec_us == 3.0);
  ep_manifest_free(&m);
  free(text);
  /* "measured": null is no measurement */
  text = edited("{\"faster\": true, \"ort_us\": 2.5, \"wherec_us\": 1.0}", "null");
  assert_true(ep_manifest_parse(text, strlen(text), &m, err, sizeof err));
  assert_false(m.kernels[0].measured);
  ep_manifest_free(&m);
  free(text);
  const char *none = "{\"format\": \"wherec-import-manifest\", \"version\": 2, \"kernels\": []}";
  assert_true(ep_manifest_parse(none, strlen(none), &m, err, sizeof err));
  assert_int_equal(m.n_kernels, 0);
  ep_manifest_free(&m);
}

static void test_manifest_refuses_version_1_and_4_and_asks_for_a_new_import(void **state) {
  (void)state;
  refused("\"version\": 2", "\"version\": 1",
          "manifest version 1, this provider reads versions 2 and 3 (import the model again with this wherec)");
  refused("\"version\": 2", "\"version\": 4",
          "manifest version 4, this provider reads versions 2 and 3 (import the model again with this wherec)");
  refused_as("\"version\": 2", "\"version\": 2.5", "manifest version 2.5, this provider reads versions 2 and 3", true);
  refused_as("\"version\": 2", "\"version\": \"2\"", "this provider reads versions 2 and 3", true);
  refused_as("\"version\": 2,", "", "this provider reads versions 2 and 3", true);
}

/* Version 3's flat tensors: "tensor_shape": null marks a tensor of any shape the kernel reads
   (or writes) as the vector of its elements; it must be declared as a vector. */
static void test_manifest_3_reads_flat_tensors_declared_as_vectors(void **state) {
  (void)state;
  static const char *const from[] = {
      "\"version\": 2", "\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": [4, 1, 1], \"tensor_shape\": [4]}",
      "\"shape\": [\"N\", 4, 2, 2]}\n      ],\n      \"measured"};
  static const char *const to[] = {
      "\"version\": 3", "\"shape\": [\"n\"], \"tensor_shape\": null}", "\"shape\": []}",
      "\"shape\": [\"n\"], \"tensor_shape\": null}\n      ],\n      \"measured"};
  char *text = NULL;
  for (int e = 0; e < 4; e++) { /* each edit on the last one's text */
    const char *base = text ? text : MANIFEST, *at = strstr(base, from[e]);
    assert_non_null(at);
    char *next = malloc(strlen(base) + strlen(to[e]) + 1);
    assert_non_null(next);
    memcpy(next, base, (size_t)(at - base));
    strcpy(next + (at - base), to[e]);
    strcat(next, at + strlen(from[e]));
    free(text);
    text = next;
  }
  ep_manifest m;
  assert_true(ep_manifest_parse(text, strlen(text), &m, err, sizeof err));
  const ep_mkernel *k = &m.kernels[0];
  assert_true(k->params[0].flat);
  assert_int_equal(k->params[0].rank, 1);
  assert_int_equal(k->params[0].pad, 0);
  assert_false(k->params[1].flat);
  assert_int_equal(k->params[1].rank, 0);
  assert_true(k->outputs[0].flat);
  assert_false(m.kernels[1].params[0].flat);
  ep_manifest_free(&m);
  free(text);
  refused("\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": [\"N\", 4], \"tensor_shape\": null}",
          "kernel 0: a flat tensor not declared as a vector: x");
}

static void test_manifest_refuses_another_format(void **state) {
  (void)state;
  refused("\"format\": \"wherec-import-manifest\"", "\"format\": \"onnx-manifest\"",
          "not a wherec import manifest");
  refused("\"format\": \"wherec-import-manifest\",", "", "not a wherec import manifest");
  refused("\"format\": \"wherec-import-manifest\"", "\"format\": 1", "not a wherec import manifest");
  const char *array = "[{\"format\": \"wherec-import-manifest\", \"version\": 2, \"kernels\": []}]";
  ep_manifest m;
  assert_false(ep_manifest_parse(array, strlen(array), &m, err, sizeof err));
  assert_string_equal(err, "not a wherec import manifest");
}

static void test_manifest_refuses_text_that_is_not_json_with_its_line(void **state) {
  (void)state;
  refused("\"version\": 2,", "\"version\": 2", "not JSON: line 4: expected ',' or '}'");
  refused("\"format\"", "'format'", "not JSON: line 2: expected a member name");
  ep_manifest m;
  assert_false(ep_manifest_parse("", 0, &m, err, sizeof err));
  assert_string_equal(err, "not JSON: line 1: unexpected end");
}

static void test_manifest_refuses_a_missing_member_naming_it_and_its_kernel(void **state) {
  (void)state;
  refused("\"kernels\": [", "\"kernel\": [", "missing or mistyped member: kernels");
  refused("\"name\": \"scaled_relu\",", "", "kernel 0: missing or mistyped member: name");
  refused("\"op_type\": \"Add\", ", "", "kernel 0: missing or mistyped member: op_type");
  refused("\"inputs\": [\"s\"], ", "", "kernel 0: missing or mistyped member: inputs");
  refused("\"outputs\": [\"y\"]", "\"out\": [\"y\"]", "kernel 0: missing or mistyped member: outputs");
  refused("\"tensor\": \"x\", ", "", "kernel 0: missing or mistyped member: tensor");
  refused("\"literals\": [\n        {\"tensor\": \"one\"", "\"literals\": [\n        {\"tens\": \"one\"",
          "kernel 0: missing or mistyped member: tensor");
  refused("\"baked\": [],", "", "kernel 0: missing or mistyped member: baked");
  refused("\"params\": [\n        {\"name\": \"keep\"", "\"parameters\": [\n        {\"name\": \"keep\"",
          "kernel 1: missing or mistyped member: params");
  refused("\"ort_us\": 2.5, ", "", "kernel 0: missing or mistyped member: ort_us");
  refused("\"faster\": true", "\"faster\": 1", "kernel 0: missing or mistyped member: faster");
  refused("\"wherec_us\": 1.0", "\"wherec_us\": \"1.0\"", "kernel 0: missing or mistyped member: wherec_us");
}

static void test_manifest_refuses_a_member_of_the_wrong_type(void **state) {
  (void)state;
  refused("\"kernels\": [", "\"kernels\": {\"k\": 0}, \"x\": [", "missing or mistyped member: kernels");
  refused("\"inputs\": [\"s\"]", "\"inputs\": \"s\"", "kernel 0: missing or mistyped member: inputs");
  refused("\"inputs\": [\"s\"]", "\"inputs\": [\"s\", 7]", "kernel 0: not a string in inputs");
  refused("\"name\": \"masked\"", "\"name\": null", "kernel 1: missing or mistyped member: name");
  refused("{\"index\": 0, \"op_type\": \"Where\"", "7, {\"index\": 0, \"op_type\": \"Where\"",
          "kernel 1: not an object in nodes");
  refused("    {\n      \"name\": \"masked\"", "    [],\n    {\n      \"name\": \"masked\"", "kernel 1: not an object");
  refused("\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": [\"N\", 4, 2.5, 2]}", "kernel 0: bad extent in a shape");
  refused("\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": [\"N\", -4, 2, 2]}", "kernel 0: bad extent in a shape");
  refused("\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": [\"N\", true, 2, 2]}", "kernel 0: bad extent in a shape");
  refused("\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": 4}", "kernel 0: bad shape");
  refused("\"shape\": [\"N\", 4, 2, 2]}", "\"shape\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}", "kernel 0: bad shape");
  refused("\"tensor_shape\": [4]", "\"tensor_shape\": [4, 1, 1, 1]",
          "kernel 0: tensor_shape longer than shape: bias");
}

static void test_manifest_refuses_an_unknown_dtype_naming_it(void **state) {
  (void)state;
  refused("\"dtype\": \"float\"", "\"dtype\": \"float32\"", "kernel 0: unknown dtype: float32");
  refused("\"dtype\": \"bool\"", "\"dtype\": \"Bool\"", "kernel 1: unknown dtype: Bool");
  refused("\"dtype\": \"float16\"", "\"dtype\": \"\"", "kernel 1: unknown dtype: ");
  refused("\"dtype\": \"float\"", "\"dtype\": 1", "kernel 0: missing or mistyped member: dtype");
  /* the manifest's text in a message: one line whatever it holds */
  refused("\"dtype\": \"float\"", "\"dtype\": \"flo\\nat\\u0001\"", "kernel 0: unknown dtype: flo?at?");
  refused("\"dtype\": \"int64\", \"shape\": null", "\"dtype\": \"int4\", \"shape\": null", "kernel 1: unknown dtype: int4");
}

static void test_manifest_refuses_bad_literal_bits(void **state) {
  (void)state;
  const char *bad[] = {"3f800000", "0x3f80000g", "0x", "", "0X3F800000", " 0x3f800000", "0x3f800000 ",
                       "0x-1", "0x+3f800000", "0x1ffffffff" /* wider than a float */,
                       "0x10000000000000000" /* wider than any */};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char to[64], want[96];
    snprintf(to, sizeof to, "\"bits\": \"%s\"", bad[i]);
    snprintf(want, sizeof want, "kernel 0: bad literal bits: %s", bad[i]);
    refused("\"bits\": \"0x3f800000\"", to, want);
  }
  refused("\"bits\": \"0xc000\"", "\"bits\": \"0x1c000\"", "kernel 1: bad literal bits: 0x1c000"); /* float16 */
  refused("\"bits\": \"0x3f800000\"", "\"bits\": 1065353216", "kernel 0: missing or mistyped member: bits");
  refused("\"value\": \"1.0\", \"bits\": \"0x3f800000\"", "\"value\": \"1.0\"",
          "kernel 0: missing or mistyped member: bits");
}

static void test_manifest_refuses_a_kernel_without_nodes_or_outputs(void **state) {
  (void)state;
  refused("\"nodes\": [\n        {\"index\": 0, \"op_type\": \"Where\", \"name\": \"w\", \"inputs\": [\"keep\", "
          "\"table\", \"fill\", \"\"], \"outputs\": [\"z\", \"\"]}\n      ]",
          "\"nodes\": []", "kernel 1: a kernel without nodes or outputs");
  refused("\"outputs\": [\n        {\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [\"N\", 4, 2, 2]}\n      ]",
          "\"outputs\": []", "kernel 0: a kernel without nodes or outputs");
  refused("\"nodes\": [", "\"nodes\": null, \"x\": [", "kernel 0: missing or mistyped member: nodes");
}

static void test_manifest_writes_a_message_that_fits_the_buffer_given(void **state) {
  (void)state;
  char       *text = edited("\"dtype\": \"float\"", "\"dtype\": \"a-very-long-dtype-name-indeed\"");
  char        small[16];
  ep_manifest m;
  assert_false(ep_manifest_parse(text, strlen(text), &m, small, sizeof small));
  assert_string_equal(small, "kernel 0: unkno");
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_manifest_reads_both_kernels_into_their_fields),
      cmocka_unit_test(test_manifest_reads_a_slower_measurement_and_an_empty_kernel_list),
      cmocka_unit_test(test_manifest_refuses_version_1_and_4_and_asks_for_a_new_import),
      cmocka_unit_test(test_manifest_3_reads_flat_tensors_declared_as_vectors),
      cmocka_unit_test(test_manifest_refuses_another_format),
      cmocka_unit_test(test_manifest_refuses_text_that_is_not_json_with_its_line),
      cmocka_unit_test(test_manifest_refuses_a_missing_member_naming_it_and_its_kernel),
      cmocka_unit_test(test_manifest_refuses_a_member_of_the_wrong_type),
      cmocka_unit_test(test_manifest_refuses_an_unknown_dtype_naming_it),
      cmocka_unit_test(test_manifest_refuses_bad_literal_bits),
      cmocka_unit_test(test_manifest_refuses_a_kernel_without_nodes_or_outputs),
      cmocka_unit_test(test_manifest_writes_a_message_that_fits_the_buffer_given),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
