/* file.h: whole-file reading for the generator's commands: one copy for the spec,
   the templates, the generated files, compiler logs and ONNX models. */
#ifndef WHEREC_GEN_FILE_H
#define WHEREC_GEN_FILE_H

#include <stddef.h>

/* The whole file at path in a malloc'ed buffer, NUL-terminated (the terminator
   is not counted in *len). NULL with errno set on failure: EFBIG when the file
   holds more than max bytes (reading stops there, whatever the file's size),
   ENOMEM, EIO, or fopen's errno. */
char *file_read(const char *path, size_t *len, size_t max);

#endif
