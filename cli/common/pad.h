/* SPDX-License-Identifier: MIT */
/*
 * pad.h - PKCS#7 padding of the aesecb tool (decrypt -p pkcs7).
 */
#ifndef AESECB_CLI_PAD_H
#define AESECB_CLI_PAD_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the data in len bytes of decrypted, PKCS#7-padded text: len
 * minus the padding length p (1 to 16) the last byte gives, provided the
 * last p bytes all equal p.  -1 when len is 0 or not a multiple of the
 * block size, or the padding is not valid.  The check looks at all of the
 * last block, with no early exit and no branch or memory index that
 * depends on its bytes.
 */
long cli_pkcs7_unpad(const uint8_t *data, size_t len);

#endif
