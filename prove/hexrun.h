/* SPDX-License-Identifier: MIT */
/*
 * hexrun.h - included first in the files of the run 'hex' of
 * prove/prove.sh (cli/common/hex.c, cli/quic/dgramin.c), after
 * prove/prelude.h; never in a build.  The contract of what they call in
 * lib/ and the C library: aesecb_wipe's, which the run 'none' proves on
 * its definition (lib/aesecb.c), here by the type of the buffer it
 * wipes.
 */
#include <stddef.h>

/*
 * malloc, free and memcpy of the datagram buffer (uint8_t), through
 * stand-ins of that type: WP 25 models neither allocation (\fresh and
 * \freeable, which the C library's contracts use) nor the casts to and
 * from void * of other types than char.  malloc gives a new block of n
 * bytes, or NULL, apart from the reader of datagrams
 * (cli/quic/dgramin.h) that grows it and from its old buffer; free
 * changes nothing the proof reads; memcpy writes d[0 .. n - 1] and
 * reads s[0 .. n - 1].
 * Assumed, not proved: that the block is new, and that each block freed
 * came from malloc and is not used after (the tests under
 * AddressSanitizer check these).  aesecb_wipe, on the datagram buffer,
 * likewise (Frama-C 25 has no _Generic for its other use, on the text
 * in dgramin_free, which this run does not prove).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "aesecb.h"
#include "quic/dgramin.h"
/*@ requires \valid(r);
    assigns \nothing;
    exits \false;
    ensures \result == \null || \valid(\result + (0 .. n - 1));
    ensures \result != \null ==> \separated(r, \result + (0 .. n - 1));
    ensures \result != \null && r->d != \null ==>
            \separated(r->d + (0 .. r->cap - 1), \result + (0 .. n - 1));
*/
uint8_t *aesecb__prove_malloc(size_t n, const struct dgramin *r);
/*@ assigns \nothing;
    exits \false; */
void aesecb__prove_free(uint8_t *p);
/*@ requires \valid(d + (0 .. n - 1)) && \valid_read(s + (0 .. n - 1));
    requires \separated(d + (0 .. n - 1), s + (0 .. n - 1));
    assigns d[0 .. n - 1];
    exits \false;
*/
void aesecb__prove_copy(uint8_t *d, const uint8_t *s, size_t n);
/*@ requires n == 0 || \valid(p + (0 .. n - 1));
    assigns p[0 .. n - 1];
    exits \false; */
void aesecb__prove_wipe8(uint8_t *p, size_t n);
/* (its only call, in grow, has the reader at hand as r) */
#define malloc(n) aesecb__prove_malloc(n, r)
#define free(p) aesecb__prove_free(p)
#define memcpy(d, s, n) aesecb__prove_copy(d, s, n)
#define aesecb_wipe(p, n) aesecb__prove_wipe8(p, n)
