/* SPDX-License-Identifier: MIT */
/*
 * siphash.h - SipHash-2-4 (Aumasson and Bernstein, 2012), the keyed hash
 * of the tool's hash tables (key-log client randoms, QUIC connection IDs).
 *
 * Those keys come from the input: a capture's connection IDs are chosen by
 * whoever sent the packets, a key log's client randoms by the TLS stacks.
 * With a hash an attacker cannot predict (a key drawn at random once per
 * process, cli_hash_key()), they cannot be chosen to land in one bucket,
 * and a lookup costs a few probes whatever the input (a table hashed on
 * the first bytes of the client random took a minute for 65,536 randoms
 * that share them).
 */
#ifndef AESECB_SIPHASH_H
#define AESECB_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define CLI_SIPHASH_KEY_LEN 16

/* SipHash-2-4 of m[0..len) under the 16-byte key. */
uint64_t cli_siphash24(const uint8_t key[CLI_SIPHASH_KEY_LEN], const void *m,
                       size_t len);

/* The process's table key: random (getentropy), drawn on the first call. */
const uint8_t *cli_hash_key(void);

#endif
