/* args.h: the command-line grammar every wherec command shares: options anywhere,
   `--name V`, `--name=V` or `-o V`, flags, `--` ending the options, `-` an operand. */
#ifndef WHEREC_GEN_ARGS_H
#define WHEREC_GEN_ARGS_H

#include <stdbool.h>
#include <stddef.h>

/* One option of a command: a flag, or an option taking a value. */
typedef struct args_opt {
  const char  *name;      /* spelled with its dashes: "-o", "--prefix" */
  bool         has_value; /* takes a value (else a flag) */
  const char **value;     /* where the value goes ("1" for a flag); untouched until given */
  const char **all;       /* NULL, or where every value given goes too, in order (room for
                             argc values): an option that may be given more than once */
  int         *n_all;     /* values in all */
} args_opt;

typedef enum args_result {
  ARGS_OK,   /* options stored, operands collected */
  ARGS_HELP, /* --help or -h: the caller prints its help */
  ARGS_USAGE /* a usage error, described in msg */
} args_result;

/* Parses argv[1..argc) (argv[0] is the command's name). Operands, in order,
   go to operands[0..max_operands); more than that is a usage error ("too many
   operands", or one_only's text when it is not NULL). *n_operands counts them.
   A usage error's message (no prefix, no newline) goes into msg[0..cap). */
args_result args_parse(int argc, char **argv, const args_opt *opts, int n_opts,
                       const char **operands, int max_operands, int *n_operands,
                       const char *one_only, char *msg, size_t cap);

#endif
