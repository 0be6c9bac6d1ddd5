/*
 * mct.c - the AESAVS Monte Carlo test for ECB (see mct.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "mct.h"

int mct_run(const aesecb_backend *be, int decrypt, const uint8_t *key,
            size_t key_len, const uint8_t in[16],
            struct mct_result out[MCT_OUTER])
{
	int (*crypt)(const aesecb_ctx *, const uint8_t *, uint8_t *, size_t) =
		decrypt ? aesecb_decrypt : aesecb_encrypt;
	aesecb_ctx ctx;
	uint8_t k[32], buf[2][16], tail[32];
	int i, j, rc = AESECB_OK;

	if (key_len != 16 && key_len != 24 && key_len != 32)
		return AESECB_EKEYLEN;
	memcpy(k, key, key_len);
	memcpy(buf[0], in, 16);
	for (i = 0; i < MCT_OUTER && rc == AESECB_OK; i++) {
		struct mct_result *r = &out[i];

		memcpy(r->key, k, key_len);
		r->key_len = key_len;
		memcpy(r->in, buf[0], 16);
		rc = aesecb_init(&ctx, k, key_len, be);
		/* output j goes to buf[(j + 1) & 1]: output 999 ends in
		 * buf[0], output 998 in buf[1] */
		for (j = 0; j < MCT_INNER && rc == AESECB_OK; j++)
			rc = crypt(&ctx, buf[j & 1], buf[(j + 1) & 1], 16);
		aesecb_clear(&ctx);
		memcpy(r->out, buf[0], 16);
		memcpy(tail, buf[1], 16);
		memcpy(tail + 16, buf[0], 16);
		for (j = 0; j < (int)key_len; j++)
			k[j] ^= tail[32 - key_len + (size_t)j];
	}
	if (rc != AESECB_OK)
		aesecb_wipe(out, MCT_OUTER * sizeof *out);
	aesecb_wipe(k, sizeof k);
	aesecb_wipe(buf, sizeof buf);
	aesecb_wipe(tail, sizeof tail);
	return rc;
}
