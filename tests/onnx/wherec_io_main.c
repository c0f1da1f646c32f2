/* wherec_io_main.c: a stand-in `wherec` for the tests of run and import until
   gen/main.c dispatches to them: `wherec_io run ...`, `wherec_io import ...`. */
#include <stdio.h>
#include <string.h>

#include "import.h"
#include "run.h"

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "run") == 0) return run_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "import") == 0) return import_main(argc - 1, argv + 1);
  fprintf(stderr, "usage: wherec_io run|import ...\n");
  return 2;
}
