/* SPDX-License-Identifier: MIT */
/*
 * pktkeys.h - the keys of one direction of one encryption level of a QUIC
 * connection, made ready once: the header-protection key's AES schedule
 * (a libaesecb context, kept), the AEAD key and IV, and for a 1-RTT
 * secret its key generations (RFC 9001 6).
 *
 * A try of a key on a packet (pk_try) removes header protection with
 * aesecb_hp_unprotect, in place, one AES call, and checks the AEAD tag
 * (quicpp.h); on failure the packet's bytes are put back as they came.
 * The same keys protect a packet (pk_protect, aesecb_hp_protect).
 *
 * 1-RTT: the current generation, then the next (when the key phase bit
 * says it is the other one), then the previous (a late packet), then,
 * once per generation reached, the generations after the next up to
 * PK_MAX_SKIP further (a capture that missed key updates).  Every verdict
 * is folded with the key phase bit by masks, so that nothing branches on
 * it, and a generation that verifies after the current one becomes
 * current.
 *
 * The AEAD of a generation (nettle's GCM context: the AES schedule and
 * GHASH's table, some 4 KB) is made when a try first needs it and kept in
 * a cache the keys share (pk_cache): a packet of a key that was tried
 * recently costs no key setup, and the memory of the AEADs does not grow
 * with the keys.  The cache has PK_CACHE_SLOTS, a slot by the
 * generation's number in it; a generation whose slot went to another is
 * made again when it is next used (only time, never a verdict, depends on
 * it).
 *
 * Secrets and keys are wiped by pk_wipe and pk_cache_free; no printing,
 * no exit.
 */
#ifndef AESECB_PKTKEYS_H
#define AESECB_PKTKEYS_H

#include <stddef.h>
#include <stdint.h>

#include "aesecb.h"
#include "quic/quic.h"
#include "quic/quicpp.h"

/* Generations tried past the next one for a 1-RTT packet that verifies
 * with none of the current, next and previous ones. */
#define PK_MAX_SKIP 16

/* A packet key of one generation. */
struct pk_gen {
	uint8_t key[QUIC_MAX_KEY_LEN];
	uint8_t iv[QUIC_IV_LEN];
	uint64_t id;               /* its number in the cache (0: none yet);
	                              made 0 whenever the key is written */
};

/* The AEADs made ready, shared by the keys of an engine. */
#define PK_CACHE_SLOTS 256
struct pk_cache {
	uint64_t ids;              /* the last number given */
	struct pk_slot {
		uint64_t id;           /* the generation in it (0: none) */
		struct quic_aead a;
	} *slots;
};

/* A cache with no AEAD in it: QUIC_OK, or QUIC_EINVAL (no memory). */
int pk_cache_init(struct pk_cache *c);

/* Wipe the AEADs and free the slots. */
void pk_cache_free(struct pk_cache *c);

struct pk_keys {
	int ready;
	uint32_t version;          /* the labels it was derived with */
	struct pk_cache *cache;    /* where its AEADs are made */
	aesecb_ctx hp;             /* the hp key's schedule */
	size_t key_len;            /* 16 or 32; 0: a bare hp key, no AEAD */
	/* 1-RTT generations (gen 0 only for the other levels) */
	int updates;               /* key updates followed (1-RTT secrets) */
	enum quic_hash hash;
	size_t secret_len;
	uint32_t gen;              /* current generation */
	uint8_t secret[QUIC_MAX_HASH_LEN];      /* its secret */
	struct pk_gen cur, prev, next;
	uint8_t next_secret[QUIC_MAX_HASH_LEN];
	int have_prev, have_next;
	unsigned ku_variant;       /* the key update label that worked */
	uint32_t swept;            /* generation + 1 whose forward sweep failed */
	struct pk_ahead *ahead;    /* made at the first sweep (pk_wipe frees) */
};

/* The generations after the current one's next, derived once for the
 * sweeps of a generation (their secrets too, for the one that verifies). */
struct pk_ahead {
	uint32_t base;             /* generation of g[0]; 0: not made */
	unsigned variant;          /* the key update label they were made with */
	struct pk_gen g[PK_MAX_SKIP + 1];
	uint8_t secret[PK_MAX_SKIP + 1][QUIC_MAX_HASH_LEN];
};

/* What a try found. */
struct pk_result {
	int done;                  /* header protection removed */
	int ok;                    /* the tag verified */
	uint32_t pn_len, truncated;
	uint64_t pn;
	int key_phase;             /* 1-RTT */
	uint32_t generation;       /* 1-RTT: the one that verified */
	uint32_t skipped;          /* key updates missed before it */
	int far;                   /* PK_NEAR and PK_FILTER: not checked, the
	                              number it makes being far from the
	                              largest */
};

/*
 * Keys from a traffic secret of the hash's length, for the version's
 * labels; with one_rtt the generations are followed; their AEADs are made
 * in cache.  QUIC_OK or a quic_status (QUIC_EINVAL when the backend
 * refuses the hp key).
 */
int pk_from_secret(struct pk_keys *k, enum quic_hash hash, uint32_t version,
                   const uint8_t *secret, size_t len, int one_rtt,
                   const aesecb_backend *be, struct pk_cache *cache);

/* Both sides' Initial keys of a DCID ([0] the client's, [1] the server's). */
int pk_from_initial(struct pk_keys k[2], uint32_t version, const uint8_t *dcid,
                    size_t dcid_len, const aesecb_backend *be,
                    struct pk_cache *cache);

/* A bare hp key (16, 24 or 32 bytes): header protection only. */
int pk_from_hp(struct pk_keys *k, const uint8_t *hp, size_t len,
               const aesecb_backend *be);

/* Wipe the keys and free what they hold (k must be zeroed or made by
 * pk_from_*). */
void pk_wipe(struct pk_keys *k);

/* What pk_try does. */
#define PK_CHECK   1u   /* check the tag (else header protection only) */
#define PK_ONE_RTT 2u   /* a 1-RTT packet: through the generations */
#define PK_MEMO    4u   /* the packet is this key's if any: a sweep of the
                           generations that fails is not made again at
                           this generation (for a key tried on a packet
                           of no known connection, it may be another's) */
#define PK_FILTER  8u   /* one of many keys tried: a header whose reserved
                           bits are not zero once unmasked (RFC 9000
                           17.2, 17.3: a genuine packet's are) is not this
                           key's, and its tag is not checked */
#define PK_NEAR   16u   /* a first pass over many keys: the current, next
                           and previous generations only (no sweep of
                           the later ones); with PK_FILTER, a packet
                           number more than PK_WINDOW from the largest
                           one is not this key's */
#define PK_WINDOW 1024

/*
 * Try k on the packet pkt[0..len) (one packet of a datagram, in place)
 * whose packet number starts at pn_offset, largest being the largest
 * packet number of its space (QUIC_PN_NONE: none), as flags say.  With
 * PK_CHECK and an AEAD key the tag is checked; without, header protection
 * is only removed.  On success (or without a check) the packet keeps its
 * header protection removed; otherwise it is put back.  Returns QUIC_OK
 * (the verdict in *r) or QUIC_ESAMPLE when the packet is too short for its
 * sample there.
 */
int pk_try(struct pk_keys *k, uint8_t *pkt, size_t len, size_t pn_offset,
           uint64_t largest, unsigned flags, struct pk_result *r);

/* The AEAD of the generation a try verified with (for the frames), in
 * the cache until the next try; NULL when there is none. */
const struct quic_aead *pk_aead(struct pk_keys *k, uint32_t generation);

/* The mask of the sample at pn_offset + 4 (for the report). */
int pk_mask(const struct pk_keys *k, const uint8_t *pkt, size_t pn_offset,
            uint8_t mask[5]);

/* Header protection applied to pkt in place (--protect): AESECB_OK or a
 * library status. */
int pk_protect(const struct pk_keys *k, uint8_t *pkt, size_t len,
               size_t pn_offset);

#endif
