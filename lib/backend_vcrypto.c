/* SPDX-License-Identifier: MIT */
/*
 * backend_vcrypto.c - AES with the POWER8 vector crypto instructions
 * (Power ISA 2.07, category Vector.Crypto), 64-bit POWER.
 *
 * The instructions work on one 128-bit vector register, read as the AES
 * state in the order of FIPS-197 (byte 0 = the register's most
 * significant byte, "big-endian byte order of the register"):
 *
 *   vcipher      s, k:  MixColumns(ShiftRows(SubBytes(s))) ^ k
 *   vcipherlast  s, k:  ShiftRows(SubBytes(s)) ^ k
 *   vncipher     s, k:  InvMixColumns(InvSubBytes(InvShiftRows(s)) ^ k)
 *   vncipherlast s, k:  InvSubBytes(InvShiftRows(s)) ^ k
 *   vsbox        s:     SubBytes(s)
 *
 * Decryption.  vncipher adds the round key before InvMixColumns, as a round
 * of FIPS-197's InvCipher does (ISA 2.07B; the register-transfer text of
 * 2.07 had the order wrong), unlike x86's AESDEC or Arm's AESD+AESIMC,
 * which add it after and so need the equivalent inverse cipher with
 * InvMixColumns applied to the middle round keys.  Here the direct order is
 * the one that fits the instruction: s ^= rk[Nr], vncipher with rk[Nr-1]
 * down to rk[1], vncipherlast with rk[0], with the encryption round keys as
 * they are (keys transformed for the equivalent inverse cipher would give
 * wrong results).  So the decryption schedule is the encryption schedule
 * read from its end; setkey computes it once and the block functions only
 * load it, like every other backend's.
 *
 * Byte order.  The register order the instructions want is not the
 * element order of a little-endian vector load.  Blocks are loaded and
 * stored with the element-reversed ("big-endian element order") byte
 * load and store builtins: lxvw4x + vperm on little-endian POWER8,
 * lxvw4x alone on big-endian.  The round keys are stored by setkey with
 * stxvd2x and loaded with lxvd2x, a pair that gives back the same
 * register image in either byte order, so a key load is one instruction
 * with no permute; their layout in the context is therefore not the
 * FIPS-197 byte order on little-endian (each 8-byte half is reversed),
 * and nothing but this file reads it.  The key schedule works on 32-bit
 * words taken from the key bytes with shifts (endian-neutral) and builds
 * each round-key register from its four words in the element order of
 * the target (__BYTE_ORDER__).  The 5-byte QUIC masks come from the
 * register's high doubleword (mfvsrd) and are stored most significant
 * byte first.  Every place that depends on the byte order is written for
 * both; the unit tests' vectors (and their single-byte position test)
 * fail on any mistake in it.  Big-endian ppc64 builds with gcc: the
 * builtins used here need no <altivec.h> and so no file-wide -maltivec,
 * only the function target, and give the register image by their
 * definition (there the block loads and stores need no permute at all).
 * This file alone has been run big-endian (gcc -mbig-endian, ELFv1 and
 * ELFv2, freestanding, FIPS-197 vectors under qemu-ppc64 -cpu power8, 9
 * and 10: correct); the library's tests have not, for want of a
 * big-endian POWER C library in Debian 12.  clang takes its own builtin
 * names and <altivec.h> (so file-wide AltiVec, which little-endian ppc64
 * always has).
 *
 * Pipeline.  On POWER8 and POWER9 a vcipher-class instruction takes about
 * 6 to 7 cycles and is pipelined (a new one may start every cycle), so a
 * single block leaves the unit mostly idle.  The bulk loop applies each
 * round key to 8 independent blocks before the next key (the group size
 * of OpenSSL's aesp8 CTR and CBC-decryption code), enough to cover that
 * latency; 8 states, up to 15 round keys and the permute mask take 24 of
 * the 32 vector registers, so nothing is spilled, but more than the 20
 * volatile ones, so the bulk path is a function of its own that saves
 * the others.  The remaining blocks go as groups of 4, 2 and 1.  The
 * one-block path is the bare dependency chain: the load, the whitening
 * XOR, Nr-1 rounds, the last round and the store, written out for each
 * key size (the round count is a compile-time constant in each copy,
 * chosen by a switch at the entry points), with the round keys loaded
 * beside it and no register saved.  POWER8 has no displacement form of
 * the vector loads, so each round key costs an address add and a load
 * (POWER9's lxv and lxvb16x would save those and the permutes; not used,
 * so that one copy serves every model).
 *
 * Context layout (ctx->priv_keys; the context may be only 8-byte aligned,
 * which lxvd2x does not mind):
 *
 *   bytes   0..239   round keys rk[0..Nr] (16 bytes each, stxvd2x images)
 *
 * Keys and blocks stay in registers: every path but key setup is declared
 * register-only (AESECB_REGS_*, lib/internal.h).
 * Nothing branches on, or indexes memory with, key or data bytes: the
 * S-box is the hardware's (vsbox in the key schedule).
 *
 * The instructions are enabled per function (target "cpu=power8" for gcc,
 * "arch=pwr8" for clang), so the library as a whole keeps the build's
 * baseline; POWER8 is the baseline of little-endian ppc64 in any case.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "internal.h"

#if defined(AESECB_WITH_VCRYPTO) && (defined(__powerpc64__) || defined(__PPC64__))

typedef unsigned long long vu64 __attribute__((vector_size(16)));
typedef unsigned int vu32 __attribute__((vector_size(16)));

#define INLINE static inline __attribute__((always_inline))

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VCRYPTO_LE 1
#else
#define VCRYPTO_LE 0
#endif

#if defined(__clang__)
/* clang's names, and its <altivec.h> for the element-reversed loads */
#include <altivec.h>
#define TARGET __attribute__((target("arch=pwr8")))
#define VCIPHER(s, k)      __builtin_altivec_crypto_vcipher((s), (k))
#define VCIPHERLAST(s, k)  __builtin_altivec_crypto_vcipherlast((s), (k))
#define VNCIPHER(s, k)     __builtin_altivec_crypto_vncipher((s), (k))
#define VNCIPHERLAST(s, k) __builtin_altivec_crypto_vncipherlast((s), (k))
#define VSBOX(s)           __builtin_altivec_crypto_vsbox(s)
#define LOAD_KEY(p)  ((vu64)vec_xl_be(0, (const unsigned long long *)(const void *)(p)))
#define STORE_KEY(p, v) \
	vec_xst_be((__vector unsigned long long)(v), 0, (unsigned long long *)(void *)(p))
#define LOAD_BLOCK(p) ((vu64)vec_xl_be(0, (const unsigned char *)(p)))
#define STORE_BLOCK(p, v) \
	vec_xst_be((__vector unsigned char)(v), 0, (unsigned char *)(p))
#else
/* gcc: the builtins alone, which need no file-wide -maltivec */
typedef long long vs64 __attribute__((vector_size(16)));
typedef signed char vs8 __attribute__((vector_size(16)));
#define TARGET __attribute__((target("cpu=power8")))
#define VCIPHER(s, k)      __builtin_crypto_vcipher((s), (k))
#define VCIPHERLAST(s, k)  __builtin_crypto_vcipherlast((s), (k))
#define VNCIPHER(s, k)     __builtin_crypto_vncipher((s), (k))
#define VNCIPHERLAST(s, k) __builtin_crypto_vncipherlast((s), (k))
#define VSBOX(s)           __builtin_crypto_vsbox(s)
/* lxvd2x / stxvd2x: doublewords in big-endian element order, no permute */
#define LOAD_KEY(p) \
	((vu64)__builtin_vsx_ld_elemrev_v2di(0, (const long long *)(const void *)(p)))
#define STORE_KEY(p, v) \
	__builtin_vsx_st_elemrev_v2di((vs64)(v), 0, (long long *)(void *)(p))
/* bytes in big-endian element order: byte i of memory in register byte i */
#define LOAD_BLOCK(p) \
	((vu64)__builtin_vsx_ld_elemrev_v16qi(0, (const signed char *)(const void *)(p)))
#define STORE_BLOCK(p, v) \
	__builtin_vsx_st_elemrev_v16qi((vs8)(v), 0, (signed char *)(void *)(p))
#endif

/* ------------------------------------------------------------------ */
/* Key schedule                                                        */

/* SubWord: vsbox on a register holding w in all four words (which word
 * is which does not matter then, in either byte order). */
TARGET static inline __attribute__((always_inline)) uint32_t sub_word(
	uint32_t w)
{
	vu32 v = { w, w, w, w };

	v = (vu32)VSBOX((vu64)v);
	return v[0];
}

/* The register whose bytes are those of the words a, b, c, d (each most
 * significant byte first), in FIPS-197 order. */
TARGET static inline __attribute__((always_inline)) vu64 words_to_key(
	uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
#if VCRYPTO_LE
	vu32 v = { d, c, b, a };   /* element 0 is the register's low word */
#else
	vu32 v = { a, b, c, d };
#endif
	return (vu64)v;
}

/* A burned call (lib/aesecb.c): w and the compiler's spills are
 * overwritten after it returns; the helpers above are inlined. */
TARGET static void setkey(aesecb_ctx *ctx, const uint8_t *key, size_t key_len,
                          aesecb_stack *stk)
{
	uint32_t w[60];
	size_t nk = key_len / 4, nr = ctx->priv_rounds, total = 4 * (nr + 1);
	size_t i;
	uint32_t rcon = 1;
	uint8_t *rk = ctx->priv_keys.b;

	aesecb__stack_mark(stk);
	/* words as FIPS-197 has them: byte 0 most significant, so RotWord
	 * is a rotation left by 8 and Rcon sits in the top byte */
	for (i = 0; i < nk; i++)
		w[i] = (uint32_t)key[4 * i] << 24 | (uint32_t)key[4 * i + 1] << 16 |
		       (uint32_t)key[4 * i + 2] << 8 | (uint32_t)key[4 * i + 3];
	for (i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			t = sub_word((t << 8) | (t >> 24)) ^ (rcon << 24);
			/* xtime on the round constant (public data) */
			rcon = (rcon << 1) ^ (0x11b & -(rcon >> 7));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i <= nr; i++)
		STORE_KEY(rk + 16 * i, words_to_key(w[4 * i], w[4 * i + 1],
		                                    w[4 * i + 2], w[4 * i + 3]));
}

/* ------------------------------------------------------------------ */
/* Block functions                                                     */

/* One step (op, key k) applied to 8, 4, 2 or 1 states in b0..b7. */
#define R8(op, k) do { const vu64 k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); b2 = op(b2, k_); b3 = op(b3, k_); \
	b4 = op(b4, k_); b5 = op(b5, k_); b6 = op(b6, k_); b7 = op(b7, k_); \
} while (0)
#define R4(op, k) do { const vu64 k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); b2 = op(b2, k_); b3 = op(b3, k_); \
} while (0)
#define R2(op, k) do { const vu64 k_ = (k); \
	b0 = op(b0, k_); b1 = op(b1, k_); \
} while (0)
#define R1(op, k) do { b0 = op(b0, (k)); } while (0)

#define XOR(x, k)  ((x) ^ (k))
#define MID(x, k)  (dec ? VNCIPHER((x), (k)) : VCIPHER((x), (k)))
#define LAST(x, k) (dec ? VNCIPHERLAST((x), (k)) : VCIPHERLAST((x), (k)))

/*
 * The whole cipher on the states of one group: whitening XOR, Nr-1 full
 * rounds, last round; K(i) is the i-th key of this direction.  nr is a
 * compile-time constant where this expands, so the conditions vanish.
 */
#define CIPHER(R) do { \
	R(XOR, K(0)); \
	R(MID, K(1)); R(MID, K(2)); R(MID, K(3)); R(MID, K(4)); \
	R(MID, K(5)); R(MID, K(6)); R(MID, K(7)); R(MID, K(8)); \
	R(MID, K(9)); \
	if (nr > 10) { R(MID, K(10)); R(MID, K(11)); } \
	if (nr > 12) { R(MID, K(12)); R(MID, K(13)); } \
	R(LAST, K(nr)); \
} while (0)

/* Encryption uses rk[0..nr], decryption rk[nr..0] (see the top). */
#define K(i) (dec ? k[nr - (i)] : k[(i)])

#define LD(i)  LOAD_BLOCK(in + 16 * (i))
/* Output: whole blocks, or (msk) the 5-byte QUIC masks, 5 bytes apart. */
#define OUTB (msk ? 5 : 16)
#define ST(i, v) do { \
	if (msk) \
		store_mask(out + 5 * (i), (v)); \
	else \
		STORE_BLOCK(out + 16 * (i), (v)); \
} while (0)

/* The first 5 bytes of the state: the top of its high doubleword. */
INLINE TARGET void store_mask(uint8_t *m, vu64 x)
{
	uint64_t hi = x[VCRYPTO_LE ? 1 : 0];
	uint32_t top = (uint32_t)(hi >> 32);

#if VCRYPTO_LE
	top = __builtin_bswap32(top);
#endif
	__builtin_memcpy(m, &top, 4);
	m[4] = (uint8_t)(hi >> 24);
}

/* The round keys of this direction, all in registers. */
#define LOAD_KEYS() do { \
	_Pragma("GCC unroll 15") \
	for (i = 0; i <= nr; i++) \
		k[i] = LOAD_KEY(rk + 16 * i); \
} while (0)

/*
 * One block: the bare dependency chain.  rk is the schedule; nr, dec and
 * msk are constants at every call site (always inlined).
 */
INLINE TARGET void one_block(const uint8_t *rk, const uint8_t *in,
                             uint8_t *out, const unsigned nr, const int dec,
                             const int msk)
{
	vu64 k[15], b0;
	unsigned i;

	LOAD_KEYS();
	b0 = LD(0);
	CIPHER(R1);
	ST(0, b0);
}

/*
 * Two or more blocks.  The round keys are loaded once, before any block is
 * stored (out may not alias the context, but the compiler cannot know
 * that, and would load them again after each store otherwise).  This
 * needs more vector registers than the volatile ones, so it is a function
 * of its own (bulk() below) that saves the others: the one-block path
 * saves none.
 */
INLINE TARGET void many_blocks(const uint8_t *rk, const uint8_t *in,
                               uint8_t *out, size_t n, const unsigned nr,
                               const int dec, const int msk)
{
	vu64 k[15], b0, b1, b2, b3, b4, b5, b6, b7;
	unsigned i;

	LOAD_KEYS();
	while (n >= 8) {
		b0 = LD(0); b1 = LD(1); b2 = LD(2); b3 = LD(3);
		b4 = LD(4); b5 = LD(5); b6 = LD(6); b7 = LD(7);
		CIPHER(R8);
		ST(0, b0); ST(1, b1); ST(2, b2); ST(3, b3);
		ST(4, b4); ST(5, b5); ST(6, b6); ST(7, b7);
		in += 128;
		out += 8 * OUTB;
		n -= 8;
	}
	if (n & 4) {
		b0 = LD(0); b1 = LD(1); b2 = LD(2); b3 = LD(3);
		CIPHER(R4);
		ST(0, b0); ST(1, b1); ST(2, b2); ST(3, b3);
		in += 64;
		out += 4 * OUTB;
	}
	if (n & 2) {
		b0 = LD(0); b1 = LD(1);
		CIPHER(R2);
		ST(0, b0); ST(1, b1);
		in += 32;
		out += 2 * OUTB;
	}
	if (n & 1) {
		b0 = LD(0);
		CIPHER(R1);
		ST(0, b0);
	}
}

/* The nine specialised bulk functions: bulk_<nr>_<dec>_<msk>. */
#define BULK(nr, dec, msk) \
static __attribute__((noinline)) TARGET int bulk_##nr##_##dec##_##msk( \
	const uint8_t *rk, const uint8_t *in, uint8_t *out, size_t n, \
	aesecb_stack *stk) \
{ \
	AESECB_MARK_UNOPTIMISED(stk); \
	many_blocks(rk, in, out, n, nr, dec, msk); \
	return AESECB_OK; \
}
BULK(10, 0, 0) BULK(12, 0, 0) BULK(14, 0, 0)
BULK(10, 1, 0) BULK(12, 1, 0) BULK(14, 1, 0)
BULK(10, 0, 1) BULK(12, 0, 1) BULK(14, 0, 1)

/* The entry: one block inline, more in the bulk function (a tail call). */
#define DISPATCH(dec, msk) do { \
	const uint8_t *rk = ctx->priv_keys.b; \
	AESECB_MARK_UNOPTIMISED(stk); \
	switch (ctx->priv_rounds) { \
	case 10: \
		if (n != 1) \
			return bulk_10_##dec##_##msk(rk, in, out, n, stk); \
		one_block(rk, in, out, 10, dec, msk); \
		break; \
	case 12: \
		if (n != 1) \
			return bulk_12_##dec##_##msk(rk, in, out, n, stk); \
		one_block(rk, in, out, 12, dec, msk); \
		break; \
	default: \
		if (n != 1) \
			return bulk_14_##dec##_##msk(rk, in, out, n, stk); \
		one_block(rk, in, out, 14, dec, msk); \
		break; \
	} \
	return AESECB_OK; \
} while (0)

TARGET static int encrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	DISPATCH(0, 0);
}

TARGET static int decrypt_blocks(const aesecb_ctx *ctx, const uint8_t *in,
                                  uint8_t *out, size_t n, aesecb_stack *stk)
{
	DISPATCH(1, 0);
}

/* QUIC masks: encryption with 5-byte stores straight from the registers. */
TARGET static int masks(const aesecb_ctx *ctx, const uint8_t *in,
                         uint8_t *out, size_t n, aesecb_stack *stk)
{
	DISPATCH(0, 1);
}

static const struct aesecb_impl impl = {
	.setkey = setkey,
	.encrypt = encrypt_blocks,
	.decrypt = decrypt_blocks,
	.masks = masks,
};
#define IMPL (&impl)
#else
#define IMPL NULL
#endif

AESECB_BACKEND(vcrypto, "ppc64", AESECB_CPU_PPC_VCRYPTO,
               AESECB_REGS(AESECB_REGS_ONE | AESECB_REGS_BLOCKS), IMPL);
