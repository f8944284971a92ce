# SPDX-License-Identifier: GPL-2.0
# Crafted MRC packets (Documentation/protocol.rst, core/mrc_wire.h) as bash printf escapes, and
# their injection from one host of lib_fabric.sh's pair to the other's MRC port. Packets sent
# from host B's namespace carry B's address: to a QP of A connected to B they come from its peer.

PORT=4791

# Send the bytes given as \xNN escapes from netns NS to ADDR's MRC port, as one datagram: bash's
# printf flushes its output at every newline byte (0x0a), so it writes to a file, which dd
# then writes to the socket at once (not cat: the VM's busybox cat uses sendfile(), which an
# IPv6 UDP socket refuses -- nothing was sent to IPv6 addresses, silently).
inject_in() { # NS ADDR BYTES
	ip netns exec "$1" bash -c "f=\$(mktemp); printf '$3' >\$f; dd if=\$f bs=65536 2>/dev/null >/dev/udp/$2/$PORT; rm -f \$f"
}

# From host B to host A, and from A to B.
inject() { inject_in mstb "$@"; } # ADDR BYTES
inject_from_a() { inject_in msta "$@"; } # ADDR BYTES

# \xNN escapes of the 4-byte big-endian value N.
be32() { # N
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) \
		$(($1 >> 8 & 255)) $(($1 & 255))
}

zeros() { # N -> N zero bytes
	printf '\\x00%.0s' $(seq 1 "$1")
}

# A zero-length WRITE (base + MSG + RETH = 9 words) to QPN with PSN.
write_packet() { # QPN PSN
	echo "\x10\x04\x09\x00$(be32 "$1")$(be32 "$2")$(zeros 24)"
}

# A zero-length SEND (base + MSG + RQ = 7 words) to QPN with PSN, consuming receive WQE RSN,
# asking for an ACK.
send_packet() { # QPN PSN RSN
	echo "\x10\x01\x07\x80$(be32 "$1")$(be32 "$2")$(zeros 12)$(be32 "$3")"
}

# A NAK (base + ACK + NAK = 16 words) with CODE and VALUE for PSN, its ACK part all zeros.
nak_packet() { # QPN PSN CODE VALUE
	echo "\x10\x21\x10\x00$(be32 "$1")$(be32 "$2")$(zeros 48)$(printf '\\x%02x\\x%02x' "$3" "$4")$(zeros 2)"
}

# A READ_REQ (base + MSG + RETH + READ = 10 words) for LEN bytes of a LEN-byte message at
# VA/RKEY, PSN, asking for an ACK.
read_req_packet() { # QPN PSN VA RKEY LEN
	echo "\x10\x10\x0a\x80$(be32 "$1")$(be32 "$2")$(zeros 4)$(zeros 4)$(be32 "$5")$(be32 $(($3 >> 32)))$(be32 "$3")$(be32 "$4")$(be32 "$5")"
}

# A PROBE (base + PROBE = 9 words) with ID; FLAGS 0x10 asks for copies of the reply; REPLY
# (reply_ev) the UDP source port asked for the first reply, 0 (the default) for none.
probe_packet() { # ID FLAGS [REPLY]
	echo "\x10\x30\x09$(printf '\\x%02x' "$2")$(zeros 8)$(be32 "$1")$(zeros 4)$(be32 "${3:-0}")$(zeros 12)"
}

# A UD datagram (base + DETH = 5 words) to QPN with Q_Key QKEY from source QPN SRC, carrying
# LEN zero bytes.
ud_packet() { # QPN QKEY SRC LEN
	echo "\x10\x08\x05\x00$(be32 "$1")$(be32 0)$(be32 "$2")$(be32 "$3")$(zeros "$4")"
}
