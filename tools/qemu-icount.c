/* SPDX-License-Identifier: MIT */
/*
 * qemu-icount.c - the calls whose instructions tools/qemu-icount.sh
 * counts under qemu-user.  Built on request ('make tools/qemu-icount'),
 * never installed.
 *
 *   tools/qemu-icount IMPL OP BITS BLOCKS CALLS
 *
 * IMPL   aesecb:NAME (a backend of libaesecb), openssl:evp (EVP's ECB
 *        cipher) or openssl:aes (AES_encrypt/AES_decrypt, one block a
 *        call); OpenSSL's libcrypto is opened at run time, from
 *        $ICOUNT_LIBCRYPTO or as libcrypto.so.3, so that the program
 *        needs no OpenSSL of the target architecture to build
 * OP     enc, dec, or mask (aesecb_hp_mask / aesecb_hp_masks; OpenSSL:
 *        an ECB encryption of the samples)
 * BITS   128, 192 or 256
 * BLOCKS blocks (or masks) per call: 1 is the one-block path
 * CALLS  how many calls
 *
 * Everything but the calls (start-up, key setup, loading libcrypto) is
 * the same for every CALLS, so the difference between two runs divided
 * by the difference of their CALLS is the cost of one call.  The program
 * checks its first output against aesecb's portable backend and exits 1
 * when they differ: a peer driven wrongly gives no figure.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aesecb.h"

#define MAX_BLOCKS 4096

static uint8_t in[MAX_BLOCKS * 16], out[MAX_BLOCKS * 16];
static uint8_t ref[MAX_BLOCKS * 16];

/* OpenSSL, reached through dlsym (its ABI since 1.1) */
typedef struct { unsigned char opaque[256]; } aes_key; /* >= sizeof AES_KEY */
static void *(*evp_ctx_new)(void);
static const void *(*evp_cipher)(void);
static int (*evp_init)(void *, const void *, void *, const unsigned char *,
                       const unsigned char *, int);
static int (*evp_padding)(void *, int);
static int (*evp_update)(void *, unsigned char *, int *,
                         const unsigned char *, int);
static int (*aes_setkey)(const unsigned char *, int, aes_key *);
static void (*aes_block)(const unsigned char *, unsigned char *,
                         const aes_key *);

/* A function of the library into *fnp, a function pointer of the same
 * size as an object pointer (POSIX's dlsym idiom, without the cast ISO C
 * has no word for). */
static void sym(void *h, const char *name, void *fnp, size_t size)
{
	void *p = dlsym(h, name);

	if (p == NULL || size != sizeof p) {
		fprintf(stderr, "qemu-icount: %s: %s\n", name,
		        p == NULL ? dlerror() : "function pointer size");
		exit(2);
	}
	memcpy(fnp, &p, sizeof p);
}
#define SYM(h, name, fn) sym((h), (name), &(fn), sizeof(fn))

static int usage(void)
{
	fputs("usage: qemu-icount aesecb:NAME|openssl:evp|openssl:aes "
	      "enc|dec|mask 128|192|256 BLOCKS CALLS\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	uint8_t key[32];
	aesecb_ctx ctx;
	const aesecb_backend *be;
	const char *impl, *op;
	long bits, blocks, calls, c, b;
	int dec, mask, n, st;
	size_t i, len;

	if (argc != 6)
		return usage();
	impl = argv[1];
	op = argv[2];
	bits = strtol(argv[3], NULL, 10);
	blocks = strtol(argv[4], NULL, 10);
	calls = strtol(argv[5], NULL, 10);
	if ((bits != 128 && bits != 192 && bits != 256) || blocks < 1 ||
	    blocks > MAX_BLOCKS || calls < 0)
		return usage();
	dec = strcmp(op, "dec") == 0;
	mask = strcmp(op, "mask") == 0;
	if (!dec && !mask && strcmp(op, "enc") != 0)
		return usage();
	for (i = 0; i < sizeof key; i++)
		key[i] = (uint8_t)(i * 29 + 3);
	for (i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	len = (size_t)blocks * 16;

	/* the reference: the portable backend */
	if (aesecb_init(&ctx, key, (size_t)bits / 8,
	                aesecb_backend_find("none")) != AESECB_OK)
		return 2;
	(dec ? aesecb_decrypt : aesecb_encrypt)(&ctx, in, ref, len);

	if (strncmp(impl, "aesecb:", 7) == 0) {
		st = aesecb_backend_resolve(impl + 7, &be, NULL);
		if (st != AESECB_OK) {
			fprintf(stderr, "qemu-icount: %s: %s\n", impl,
			        aesecb_strerror(st));
			return 3;
		}
		if (aesecb_init(&ctx, key, (size_t)bits / 8, be) != AESECB_OK)
			return 2;
		for (c = 0; c < calls; c++) {
			if (mask && blocks == 1)
				aesecb_hp_mask(&ctx, in, out);
			else if (mask)
				aesecb_hp_masks(&ctx, in, out, (size_t)blocks);
			else if (dec)
				aesecb_decrypt(&ctx, in, out, len);
			else
				aesecb_encrypt(&ctx, in, out, len);
		}
		if (calls > 0 && mask) {
			for (b = 0; b < blocks; b++)
				if (memcmp(out + 5 * b, ref + 16 * b, 5) != 0)
					goto wrong;
			return 0;
		}
	} else if (strcmp(impl, "openssl:evp") == 0 ||
	           strcmp(impl, "openssl:aes") == 0) {
		const char *path = getenv("ICOUNT_LIBCRYPTO");
		void *h = dlopen(path ? path : "libcrypto.so.3", RTLD_NOW);
		char name[32];
		aes_key ak;
		void *e;

		if (h == NULL) {
			fprintf(stderr, "qemu-icount: %s\n", dlerror());
			return 3;
		}
		if (impl[8] == 'e') {
			SYM(h, "EVP_CIPHER_CTX_new", evp_ctx_new);
			snprintf(name, sizeof name, "EVP_aes_%ld_ecb", bits);
			SYM(h, name, evp_cipher);
			SYM(h, "EVP_CipherInit_ex", evp_init);
			SYM(h, "EVP_CIPHER_CTX_set_padding", evp_padding);
			SYM(h, "EVP_CipherUpdate", evp_update);
			e = evp_ctx_new();
			if (e == NULL || !evp_init(e, evp_cipher(), NULL, key,
			                           NULL, !dec) ||
			    !evp_padding(e, 0))
				return 2;
			for (c = 0; c < calls; c++)
				evp_update(e, out, &n, in, (int)len);
		} else {
			SYM(h, dec ? "AES_set_decrypt_key"
			           : "AES_set_encrypt_key", aes_setkey);
			SYM(h, dec ? "AES_decrypt" : "AES_encrypt", aes_block);
			if (aes_setkey(key, (int)bits, &ak) != 0)
				return 2;
			for (c = 0; c < calls; c++)
				for (b = 0; b < blocks; b++)
					aes_block(in + 16 * b, out + 16 * b, &ak);
		}
	} else {
		return usage();
	}
	if (calls > 0 && memcmp(out, ref, len) != 0)
		goto wrong;
	return 0;
wrong:
	fprintf(stderr, "qemu-icount: %s %s AES-%ld: wrong output\n", impl, op,
	        bits);
	return 1;
}
