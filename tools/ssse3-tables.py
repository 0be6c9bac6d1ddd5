#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ssse3-tables.py - check the field tables of lib/backend_ssse3.c.

Usage: tools/ssse3-tables.py [lib/backend_ssse3.c]

Builds GF(16) = GF(2)[z]/(z^4 + z + 1) and GF(256) over it as in the
comment at the top of backend_ssse3.c (k + i*t, t^2 = a*t + a, a = 2,
phi: the AES byte x -> beta^x with beta = 0x1c), evaluates the defining
formula of every table at its 16 indices, and compares the results with
the tables in the file.  For the w = N/j inversion of the one-block
decryption it also runs the inversion with PSHUFB semantics (index bit 7
set gives 0) on all 256 bytes and checks every output map.  Prints the
tables it checked; exits 1 on a difference.
"""
import re
import sys


def mul(a, b, poly, bits):
    r = 0
    for _ in range(bits):
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a >> bits:
            a ^= poly
    return r


def m4(a, b): return mul(a, b, 0x13, 4)
def m8(a, b): return mul(a, b, 0x11b, 8)
def i4(a): return next((b for b in range(16) if m4(a, b) == 1), 0)


A = 2


def tmul(x, y):
    k1, i1, k2, i2 = x & 15, x >> 4, y & 15, y >> 4
    ii = m4(i1, i2)
    return (m4(k1, k2) ^ m4(ii, A)) | (m4(k1, i2) ^ m4(i1, k2) ^ m4(ii, A)) << 4


POW = [1]
for _ in range(7):
    POW.append(tmul(POW[-1], 0x1c))


def phi(x):
    r = 0
    for j in range(8):
        if x >> j & 1:
            r ^= POW[j]
    return r


PHI_INV = {phi(x): x for x in range(256)}


def L(x):  # the linear part of the S-box's affine map
    return sum(((x >> i ^ x >> (i + 4) % 8 ^ x >> (i + 5) % 8 ^
                 x >> (i + 6) % 8 ^ x >> (i + 7) % 8) & 1) << i for i in range(8))


L_INV = {L(x): x for x in range(256)}


def tw(k, i): return k | i << 4


def outs(M, c1, c2):
    """T1[u], T2[w] where 1/x = 1/u + t*(c1/u + c2/w)."""
    return ([M(PHI_INV[tw(i4(u), m4(c1, i4(u)))]) if u else 0 for u in range(16)],
            [M(PHI_INV[tw(0, m4(c2, i4(w)))]) if w else 0 for w in range(16)])


def pshufb(t, x): return 0 if x & 0x80 else t[x & 15]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else 'lib/backend_ssse3.c'
    src = open(path).read()

    def table(name):
        m = re.search(r'\[' + re.escape(name) + r'\] = \{([^}]*)\}', src)
        return [int(v, 16) for v in m.group(1).split(',')]

    inv = [0x80] + [i4(n) for n in range(1, 16)]
    ak = [0x80] + [m4(A, i4(n)) for n in range(1, 16)]
    mS = lambda y: phi(L(y))
    mD = lambda y: phi(m8(2, L(y)))
    dm = lambda c: (lambda y: phi(L_INV[m8(c, y)]))
    # invert_ki: w = N/((1 + a)k + a i); 1/x = 1/u + t((1/a + 1/a^2)/u + (1/a^2)/w)
    c1, c2 = i4(A) ^ i4(m4(A, A)), i4(m4(A, A))
    # invert_nj: w = N/j; 1/x = 1/u + t(1/u + 1/w)/(1 + a)
    c3 = i4(1 ^ A)
    want = {'INV': inv, 'AK': ak, 'MULA': [m4(A, n) for n in range(16)],
            'MASK': [15] * 16,
            'ENC_IN_LO': [phi(n) for n in range(16)],
            'ENC_IN_HI': [phi(n << 4) for n in range(16)],
            'DEC_IN_LO': [phi(L_INV[n]) for n in range(16)],
            'DEC_IN_HI': [phi(L_INV[n << 4]) for n in range(16)],
            'ENC_K_LO': [phi(n) & 15 for n in range(16)],
            'ENC_K_HI': [phi(n << 4) & 15 for n in range(16)],
            'ENC_I_LO': [phi(n) >> 4 for n in range(16)],
            'ENC_I_HI': [phi(n << 4) >> 4 for n in range(16)],
            'DEC_K_LO': [phi(L_INV[n]) & 15 for n in range(16)],
            'DEC_K_HI': [phi(L_INV[n << 4]) & 15 for n in range(16)],
            'DEC_I_LO': [phi(L_INV[n]) >> 4 for n in range(16)],
            'DEC_I_HI': [phi(L_INV[n << 4]) >> 4 for n in range(16)]}
    for name, M in (('ENC_S', mS), ('ENC_D', mD), ('ENC_O', L), ('DEC_M9_', dm(9)),
                    ('DEC_M11_', dm(11)), ('DEC_M13_', dm(13)), ('DEC_M14_', dm(14)),
                    ('DEC_O', lambda y: y)):
        want[name + '1'], want[name + '2'] = outs(M, c1, c2)
    nj = {}
    for name, M in (('J_M9_', dm(9)), ('J_M11_', dm(11)), ('J_M13_', dm(13)),
                    ('J_M14_', dm(14)), ('J_O', lambda y: y)):
        nj[name] = M
        want[name + '1'], want[name + '2'] = outs(M, c3, c3)
    bad = 0
    for name, t in want.items():
        if table(name) != t:
            print('%s: differs; expected %s' % (name, ', '.join('0x%02x' % v for v in t)))
            bad = 1
    # the w = N/j inversion, byte by byte, with the file's tables
    T = {n: table(n) for n in ('INV', 'AK', 'MULA')}
    for s in range(256):
        k, i = s & 15, s >> 4
        ii = pshufb(T['INV'], i)
        u = pshufb(T['INV'], ii ^ pshufb(T['AK'], k)) ^ (i ^ k)
        w = pshufb(T['INV'], ii ^ pshufb(T['INV'], k)) ^ (k ^ pshufb(T['MULA'], i))
        x = PHI_INV[s]
        y = next((v for v in range(256) if m8(x, v) == 1), 0)
        for name, M in nj.items():
            if pshufb(table(name + '1'), u) ^ pshufb(table(name + '2'), w) != M(y):
                print('%s: wrong for the tower byte 0x%02x' % (name, s))
                bad = 1
    print('checked %d tables%s' % (len(want), ', all as in the file' if not bad else ''))
    sys.exit(bad)


main()
