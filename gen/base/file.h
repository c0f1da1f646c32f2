/* file.h: whole files in and out for the generator's commands: reading the spec, templates,
   logs and models; writing outputs atomically, and not at all when unchanged. */
#ifndef WHEREC_GEN_FILE_H
#define WHEREC_GEN_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FILE_TMP_CAP 4200 /* bytes of a staged file's name: a path up to 4096, plus a suffix */

/* The whole file at path in a malloc'ed buffer, NUL-terminated (the terminator
   is not counted in *len). NULL with errno set on failure: EFBIG when the file
   holds more than max bytes (reading stops there, whatever the file's size),
   ENOMEM, or the error of fopen or of the read (EIO when it gave none). */
char *file_read(const char *path, size_t *len, size_t max);

/* The first half of writing data to path: a temporary file beside it holding
   the len bytes, named in tmp (tmp[0] is '\0' when path already holds exactly
   them, so that an unchanged file is not rewritten). Staging every output
   before renaming any lets a failure leave the directory as it was. False with
   a message to err ("wherec: error: ...") on failure; nothing is left behind. */
bool file_stage(const char *path, const void *data, size_t len, char tmp[FILE_TMP_CAP], FILE *err);

/* The second half: the staged file replaces path (nothing to do if tmp is
   empty). tmp is emptied either way; on failure the staged file is removed. */
bool file_commit(char tmp[FILE_TMP_CAP], const char *path, FILE *err);

/* file_stage then file_commit: path holds data afterwards, or is untouched. */
bool file_write(const char *path, const void *data, size_t len, FILE *err);

#endif
