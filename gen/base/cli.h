/* cli.h: the command line of `wherec`: one table of its commands (operands, what they do)
   and their options, from which the parsing, every usage line and every help text come. */
#ifndef WHEREC_GEN_CLI_H
#define WHEREC_GEN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum cli_command { CLI_GEN, CLI_CHECK, CLI_RUN, CLI_IMPORT, CLI_N_COMMANDS } cli_command;

/* Every option of every command, in the order usage lines and help list them. -o is
   three options: what it names differs from command to command. */
typedef enum cli_option {
  CLI_OUT_DIR,        /* gen -o DIR */
  CLI_OUT_NPY,        /* run -o OUT.npy */
  CLI_OUT_SPEC,       /* import -o SPEC (or --ort DIR) */
  CLI_MANIFEST,       /* import --manifest FILE */
  CLI_VERIFY,         /* import --verify */
  CLI_INPUT_NPY,      /* import --input IN.npy */
  CLI_BAKE_LIMIT,     /* import --bake-limit BYTES */
  CLI_ORT,            /* import --ort DIR */
  CLI_LIST_OPERATORS, /* import --list-operators */
  CLI_SHAPES,         /* import --shapes */
  CLI_DIM,            /* import --dim NAME=N */
  CLI_LITERAL_ACTS,   /* import --literal-activations */
  CLI_PREFIX,         /* gen --prefix P */
  CLI_INTERP,         /* run --interp */
  CLI_THREADS,        /* run --threads N */
  CLI_CC,             /* check, run --cc CC */
  CLI_CFLAGS,         /* check --cflags FLAGS */
  CLI_TRIALS,         /* check --trials N */
  CLI_SEED,           /* check --seed S */
  CLI_SANITIZE,       /* check --sanitize */
  CLI_UNROLL,         /* gen, check --unroll N */
  CLI_TEMPLATES,      /* gen, check --templates DIR */
  CLI_N_OPTIONS
} cli_option;

/* What an option's value may be. */
typedef enum cli_kind {
  CLI_FLAG,      /* no value */
  CLI_WORD,      /* any text but the empty one: a path, a name, a compiler */
  CLI_WORDS,     /* the same, given once or more: every one kept, in order (run -o) */
  CLI_TEXT,      /* any text, empty too (--cflags "" is no flags at all) */
  CLI_NUMBER,    /* a whole decimal number in [lo, hi] */
  CLI_NUMBER_HEX /* the same, or 0x hex */
} cli_kind;

#define CLI_MAX_OPERANDS 3
#define CLI_TAKES(cmd)   (1u << (cmd)) /* a command's bit in cli_option_row.commands */

typedef struct cli_command_row {
  const char *name;
  /* in order; a last one ending in "..." may be given any number of times, or none */
  const char *operands[CLI_MAX_OPERANDS];
  const char *summary; /* one line, for `wherec --help` */
  const char *about;   /* a paragraph, for `wherec CMD --help` */
} cli_command_row;

typedef struct cli_option_row {
  const char *name;     /* spelled with its dashes: "-o", "--threads" */
  const char *value;    /* its placeholder ("N"); NULL for a flag */
  unsigned    commands; /* CLI_TAKES(c) of every command c that takes it */
  bool        required; /* the command cannot run without it */
  cli_kind    kind;
  uint64_t    lo, hi; /* the range of a number */
  const char *help;
} cli_option_row;

/* The table, indexed by cli_command and cli_option. */
extern const cli_command_row cli_commands[CLI_N_COMMANDS];
extern const cli_option_row  cli_options[CLI_N_OPTIONS];

/* One parsed command line. */
typedef struct cli_args {
  cli_command  command;
  const char  *value[CLI_N_OPTIONS];  /* as given ("1" for a flag); NULL when not given */
  uint64_t     number[CLI_N_OPTIONS]; /* a number's value; 0 when not given */
  const char **operands;              /* in order (into argv; the array is malloc'ed) */
  const char **all[CLI_N_OPTIONS];    /* CLI_WORDS: every value, in order (malloc'ed) */
  int          n_all[CLI_N_OPTIONS];  /* values in all[o] */
  int          n_operands;
} cli_args;

/* Parses main's argv. Returns -1 when a command is to run, with *a filled in (release
   it with cli_free); otherwise the exit status: GEN_EXIT_OK after help or the version
   went to out, GEN_EXIT_USAGE after a usage error and the usage went to err. */
int  cli_parse(int argc, char **argv, cli_args *a, FILE *out, FILE *err);
void cli_free(cli_args *a);

/* `wherec --help` and `wherec CMD --help`. */
void cli_print_overview(FILE *f);
void cli_print_help(FILE *f, cli_command c);

#endif
