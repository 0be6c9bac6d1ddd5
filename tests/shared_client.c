/* SPDX-License-Identifier: MIT */
/*
 * shared_client.c - a program as a user writes one: linked against the
 * built libaesecb (the shared object, or on Windows the DLL, through its
 * import library) and calling nothing but the public API.  For every
 * backend this CPU runs it prints the answers it computed, one line each:
 *
 *     backend NAME aes128 HEX aes256 HEX decrypt HEX hp HEX
 *
 * (FIPS-197 C.1 and C.3 encrypted, C.1 decrypted, the RFC 9001 A.2 header
 * protection mask), and "unavailable NAME: REASON" for the others.  It
 * compares nothing itself: tests/shared-lib.sh compares the lines with
 * the published values, so that a program that did not run at all (an
 * emulator that exits 0 without loading it) cannot pass.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <aesecb.h>

static void hex(const char *label, const uint8_t *p, size_t n)
{
	size_t i;

	printf(" %s ", label);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

int main(void)
{
	/* FIPS-197 appendix C: the keys 00 01 02 ..., one plaintext */
	static const uint8_t pt[16] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	/* RFC 9001 appendix A.2: the client Initial's hp key and sample */
	static const uint8_t hp_key[16] = {
		0x9f, 0x50, 0x44, 0x9e, 0x04, 0xa0, 0xe8, 0x10,
		0x28, 0x3a, 0x1e, 0x99, 0x33, 0xad, 0xed, 0xd2 };
	static const uint8_t sample[16] = {
		0xd1, 0xb1, 0xc9, 0x8d, 0xd7, 0x68, 0x9f, 0xb8,
		0xec, 0x11, 0xd2, 0x42, 0xb1, 0x23, 0xdc, 0x9b };
	uint8_t key[32], ct128[16], ct256[16], back[16], mask[5];
	size_t i, n = aesecb_backend_count();
	int status = 0;

	for (i = 0; i < sizeof key; i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < n; i++) {
		const aesecb_backend *be = aesecb_backend_get(i);
		const char *why = aesecb_backend_unavailable_reason(be);
		aesecb_ctx *heap = NULL;
		aesecb_ctx ctx;

		if (!aesecb_backend_available(be)) {
			printf("unavailable %s: %s\n", aesecb_backend_name(be),
			       why != NULL ? why : "no reason given");
			continue;
		}
		memset(ct128, 0, sizeof ct128);
		memset(ct256, 0, sizeof ct256);
		memset(back, 0, sizeof back);
		memset(mask, 0, sizeof mask);
		/* AES-128 in a context of the library's own allocation
		 * (aligned_alloc, or _aligned_malloc on Windows), AES-256
		 * and the mask in contexts on the stack */
		if (aesecb_ctx_new(&heap, key, 16, be) != AESECB_OK ||
		    aesecb_encrypt(heap, pt, ct128, 16) != AESECB_OK ||
		    aesecb_decrypt(heap, ct128, back, 16) != AESECB_OK) {
			printf("error %s: AES-128 failed\n", aesecb_backend_name(be));
			status = 1;
		}
		aesecb_ctx_free(heap);
		if (aesecb_init(&ctx, key, 32, be) != AESECB_OK ||
		    aesecb_encrypt(&ctx, pt, ct256, 16) != AESECB_OK) {
			printf("error %s: AES-256 failed\n", aesecb_backend_name(be));
			status = 1;
		}
		if (aesecb_init(&ctx, hp_key, 16, be) != AESECB_OK ||
		    aesecb_hp_mask(&ctx, sample, mask) != AESECB_OK) {
			printf("error %s: the mask failed\n", aesecb_backend_name(be));
			status = 1;
		}
		aesecb_clear(&ctx);
		printf("backend %s", aesecb_backend_name(be));
		hex("aes128", ct128, sizeof ct128);
		hex("aes256", ct256, sizeof ct256);
		hex("decrypt", back, sizeof back);
		hex("hp", mask, sizeof mask);
		printf("\n");
	}
	aesecb_wipe(key, sizeof key);
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
