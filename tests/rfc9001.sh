# SPDX-License-Identifier: MIT
# rfc9001.sh - the example of RFC 9001 Appendix A, one copy for the tests
# (sourced by tests/testlib.sh): the client's Destination Connection ID,
# the Initial secrets, keys, IVs and header-protection keys it gives
# (A.1), the client Initial's protected header and the sample and mask of
# its header protection (A.2), and the whole protected server Initial
# (A.3, 135 bytes).

RFC9001_DCID=8394c8f03e515708

# A.1
RFC9001_CLIENT_SECRET=c00cf151ca5be075ed0ebfb5c80323c42d6b7db67881289af4008f1f6c357aea
RFC9001_CLIENT_KEY=1f369613dd76d5467730efcbe3b1a22d
RFC9001_CLIENT_IV=fa044b2f42a3fd3b46fb255c
RFC9001_CLIENT_HP=9f50449e04a0e810283a1e9933adedd2
RFC9001_SERVER_SECRET=3c199828fd139efd216c155ad844cc81fb82fa8d7446fa7d78be803acdda951b
RFC9001_SERVER_KEY=cf3a5331653c364c88f0f379b6067e37
RFC9001_SERVER_IV=0ac1493ca1905853b0bba03e
RFC9001_SERVER_HP=c206b8d9b9f0f37644430b490eeaa314

# A.2: the protected header of the client Initial (its packet number
# offset is 18), then the sample that follows it, and the mask
RFC9001_CLIENT_HEADER=c000000001088394c8f03e5157080000449e7b9aec34
RFC9001_SAMPLE=d1b1c98dd7689fb8ec11d242b123dc9b
RFC9001_MASK=437b9aec36
RFC9001_PN_OFFSET=18

# A.3: the server Initial, protected
RFC9001_SERVER_INITIAL=\
cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a\
5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3\
dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84\
022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4\
2158407dd074ee
