/*
 * mct.h - the AESAVS Monte Carlo test for ECB, on the library.
 *
 * One Monte Carlo test is 100 outer iterations; outer iteration i starts
 * from Key[i] and an input block, runs 1000 chained one-block calls (each
 * output is the next input) and records the last output.  The next key is
 * Key[i] XOR the last key-length bytes of (output 998 || output 999); the
 * next input is output 999.  Decryption is the same with aesecb_decrypt.
 */
#ifndef AESECB_MCT_H
#define AESECB_MCT_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"

#define MCT_OUTER 100
#define MCT_INNER 1000

/* One outer iteration: its key, its input block, its output block (for
 * encryption: key, pt, ct; for decryption: key, ct, pt). */
struct mct_result {
	uint8_t key[32];
	size_t key_len;
	uint8_t in[16];
	uint8_t out[16];
};

/*
 * Run the whole test under backend be from key (key_len 16, 24 or 32
 * bytes) and the input block in; out receives the MCT_OUTER iterations.
 * Returns AESECB_OK, or the library's status when a key or the backend is
 * refused (out is then wiped).  Intermediate keys and blocks are wiped;
 * out holds key material: wipe it with aesecb_wipe() when done.
 */
int mct_run(const aesecb_backend *be, int decrypt, const uint8_t *key,
            size_t key_len, const uint8_t in[16],
            struct mct_result out[MCT_OUTER]);

#endif /* AESECB_MCT_H */
