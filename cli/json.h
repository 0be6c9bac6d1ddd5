/* SPDX-License-Identifier: MIT */
/*
 * json.h - JSON output.
 */
#ifndef AESECB_CLI_JSON_H
#define AESECB_CLI_JSON_H

#include <stdio.h>

/*
 * Write s to f as a JSON string (NULL as null).  Control characters are
 * written as \u00XX; bytes that are not well-formed UTF-8 become U+FFFD.
 */
void cli_json_str(FILE *f, const char *s);

#endif
