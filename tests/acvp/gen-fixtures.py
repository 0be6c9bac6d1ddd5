#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the ACVP-AES-ECB-1.0 fixtures of tests/check_acvp.c.

Run from tests/acvp/ to regenerate them (not run by the build).  The answers
are computed with the 'cryptography' package (OpenSSL), independently of the
code under test.  Keys and texts are FIPS-197 Appendix C and SP 800-38A F.1
examples, or derived from SHA-256 of fixed labels.
"""
import copy
import hashlib
import json
import os

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def ecb(key, data, decrypt=False):
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


def mct(key, block, decrypt):
    """AESAVS Monte Carlo test for ECB: 100 x {key, input, output}."""
    out = []
    for _ in range(100):
        c = Cipher(algorithms.AES(key), modes.ECB())
        op = c.decryptor() if decrypt else c.encryptor()
        start = block
        prev = None
        x = block
        for _ in range(1000):
            prev, x = x, op.update(x)
        out.append((key, start, x))
        tail = (prev + x)[-len(key):]
        key = bytes(a ^ b for a, b in zip(key, tail))
        block = x
    return out


def derived(label, n):
    return hashlib.sha256(label.encode()).digest()[:n] if n <= 32 else None


H = bytes.fromhex
FIPS = [  # FIPS-197 Appendix C
    (H("000102030405060708090a0b0c0d0e0f"), H("00112233445566778899aabbccddeeff")),
    (H("000102030405060708090a0b0c0d0e0f1011121314151617"), H("00112233445566778899aabbccddeeff")),
    (H("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"), H("00112233445566778899aabbccddeeff")),
]
SP_PT = H("6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
          "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710")
SP_K128 = H("2b7e151628aed2a6abf7158809cf4f3c")
SP_K192 = H("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b")


def group_spec():
    """(tgId, type, direction, keybits, [(tcId, key, input)])"""
    return [
        (1, "AFT", "encrypt", 128, [(1, FIPS[0][0], FIPS[0][1]), (2, SP_K128, SP_PT)]),
        (2, "AFT", "decrypt", 192, [(3, FIPS[1][0], ecb(FIPS[1][0], FIPS[1][1])),
                                    (4, SP_K192, ecb(SP_K192, SP_PT))]),
        (3, "AFT", "encrypt", 256, [(5, FIPS[2][0], FIPS[2][1])]),
        (4, "MCT", "encrypt", 128, [(6, derived("mct key 128", 16), derived("mct pt", 16))]),
        (5, "MCT", "decrypt", 256, [(7, derived("mct key 256", 32), derived("mct ct", 16))]),
        (6, "MCT", "decrypt", 192, [(8, derived("mct key 192", 24), derived("mct ct 192", 16))]),
    ]


def build(vsid, hexcase, groups):
    up = (lambda b: b.hex().upper()) if hexcase == "upper" else \
         (lambda b: b.hex()) if hexcase == "lower" else \
         (lambda b: "".join(c.upper() if i % 2 else c for i, c in enumerate(b.hex())))
    head = {"vsId": vsid, "algorithm": "ACVP-AES-ECB", "revision": "1.0", "isSample": True}
    prompt = dict(head, testGroups=[])
    answers = dict(head, testGroups=[])
    projection = dict(head, testGroups=[])
    for tg, ttype, direction, bits, tests in groups:
        dec = direction == "decrypt"
        inn, outn = ("ct", "pt") if dec else ("pt", "ct")
        pg = {"tgId": tg, "testType": ttype, "direction": direction, "keyLen": bits, "tests": []}
        ag = {"tgId": tg, "tests": []}
        jg = copy.deepcopy(pg)
        for tc, key, data in tests:
            q = {"tcId": tc, inn: up(data), "key": up(key)}
            pg["tests"].append(q)
            if ttype == "AFT":
                a = {"tcId": tc, outn: ecb(key, data, dec).hex().upper()}
                j = dict(q, **{outn: up(ecb(key, data, dec))})
            else:
                res = [{"key": k.hex().upper(), inn: i.hex().upper(), outn: o.hex().upper()}
                       for k, i, o in mct(key, data, dec)]
                a = {"tcId": tc, "resultsArray": res}
                j = dict(q, resultsArray=[{k: up(H(v)) for k, v in r.items()} for r in res])
            ag["tests"].append(a)
            jg["tests"].append(j)
        prompt["testGroups"].append(pg)
        answers["testGroups"].append(ag)
        projection["testGroups"].append(jg)
    return prompt, answers, projection


def write(path, obj):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


groups = group_spec()

# 1. the protocol's array form, prompt in lower-case hex
p, a, _ = build(1001, "lower", groups)
write("array/prompt.json", [{"acvVersion": "1.0"}, p])
write("array/expectedResults.json", [{"acvVersion": "1.0"}, a])

# 2. internalProjection.json: questions and answers in one object, mixed case
_, _, j = build(1002, "mixed", groups)
write("projection/internalProjection.json", j)

# 3. wrong answers: tgId 1 tcId 2 ct (block 4), tgId 4 tcId 6 iteration 37
#    ct, tgId 5 tcId 7 iteration 5 key
p, a, _ = build(1003, "upper", groups)


def flip(h):
    return h[:-1] + ("0" if h[-1] != "0" else "1")


a["testGroups"][0]["tests"][1]["ct"] = flip(a["testGroups"][0]["tests"][1]["ct"])
a["testGroups"][3]["tests"][0]["resultsArray"][37]["ct"] = flip(a["testGroups"][3]["tests"][0]["resultsArray"][37]["ct"])
a["testGroups"][4]["tests"][0]["resultsArray"][5]["key"] = flip(a["testGroups"][4]["tests"][0]["resultsArray"][5]["key"])
write("wrong/prompt.json", p)
write("wrong/expectedResults.json", a)

# 4. malformed prompts, one fault each (small: the first three groups)
small = groups[:3]
p, a, j = build(1004, "upper", small)


def bad(name, mutate, obj=p):
    o = copy.deepcopy(obj)
    mutate(o)
    write("bad/" + name, o)


bad("algorithm.json", lambda o: o.update(algorithm="ACVP-AES-CBC"))
bad("revision.json", lambda o: o.update(revision="2.0"))
bad("no-groups.json", lambda o: o.pop("testGroups"))
bad("missing-key.json", lambda o: o["testGroups"][1]["tests"][0].pop("key"))
bad("missing-input.json", lambda o: o["testGroups"][0]["tests"][1].pop("pt"))
bad("bad-hex.json", lambda o: o["testGroups"][0]["tests"][1].update(pt="6BC1BEE2" + "G" + o["testGroups"][0]["tests"][1]["pt"][9:]))
bad("odd-hex.json", lambda o: o["testGroups"][2]["tests"][0].update(pt=o["testGroups"][2]["tests"][0]["pt"][:-1]))
bad("key-length.json", lambda o: o["testGroups"][2]["tests"][0].update(key=o["testGroups"][2]["tests"][0]["key"][:48]))
bad("partial-block.json", lambda o: o["testGroups"][0]["tests"][0].update(pt=o["testGroups"][0]["tests"][0]["pt"] + "00112233"))
bad("key-bits.json", lambda o: o["testGroups"][1].update(keyLen=512))
bad("test-type.json", lambda o: o["testGroups"][0].update(testType="MMT"))
bad("direction.json", lambda o: o["testGroups"][1].update(direction="sideways"))
bad("tcid.json", lambda o: o["testGroups"][0]["tests"][1].update(tcId="2"))
bad("array-version.json", lambda o: None)
with open("bad/array-version.json", "w") as f:
    json.dump([{"version": "1.0"}, p], f, indent=2)
    f.write("\n")
with open("bad/syntax.json", "w") as f:
    f.write('{\n  "vsId": 1004,\n  "algorithm": "ACVP-AES-ECB",\n  "revision": "1.0"\n  "testGroups": []\n}\n')
# answers that do not fit the prompt
_, a2, _ = build(1004, "upper", small)
write("bad/answers-tcid/prompt.json", p)
a2["testGroups"][1]["tests"][1]["tcId"] = 99
write("bad/answers-tcid/expectedResults.json", a2)
_, a3, _ = build(1004, "upper", small)
a3["testGroups"][2]["tests"][0]["ct"] = a3["testGroups"][2]["tests"][0]["ct"][:30]
write("bad/answers-length/prompt.json", p)
write("bad/answers-length/expectedResults.json", a3)
# a Monte Carlo answer with 99 iterations (internalProjection form)
_, _, j4 = build(1005, "upper", groups[3:4])
j4["testGroups"][0]["tests"][0]["resultsArray"].pop()
write("bad/mct-iterations.json", j4)
