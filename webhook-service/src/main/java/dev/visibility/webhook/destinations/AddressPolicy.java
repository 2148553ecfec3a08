package dev.visibility.webhook.destinations;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * Which IP addresses a webhook may be delivered to: only public unicast addresses. Refused are
 * loopback, private (RFC 1918), carrier-grade NAT (RFC 6598, also Alibaba's metadata
 * 100.100.100.200), link-local (169.254.0.0/16 with the cloud metadata address 169.254.169.254;
 * fe80::/10), unique local IPv6 (fc00::/7, with AWS's fd00:ec2::254), unspecified, multicast,
 * reserved, documentation and benchmarking ranges, and the IPv6 forms that embed or tunnel to an
 * IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) unless the embedded address is public.
 * Loopback is accepted only when configured (local mode and tests).
 */
public final class AddressPolicy {

    private record Range(byte[] network, int prefix, String label) {

        static Range of(String cidr, String label) {
            String[] parts = cidr.split("/");
            try {
                return new Range(InetAddress.getByName(parts[0]).getAddress(), Integer.parseInt(parts[1]), label);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(cidr, e);
            }
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    private static final String LOOPBACK = "loopback";

    private static final List<Range> IPV4 = List.of(
            Range.of("0.0.0.0/8", "unspecified"),
            Range.of("10.0.0.0/8", "private"),
            Range.of("100.64.0.0/10", "carrier-grade NAT"),
            Range.of("127.0.0.0/8", LOOPBACK),
            Range.of("169.254.0.0/16", "link-local or cloud metadata"),
            Range.of("172.16.0.0/12", "private"),
            Range.of("192.0.0.0/24", "IETF protocol assignments"),
            Range.of("192.0.2.0/24", "documentation"),
            Range.of("192.88.99.0/24", "6to4 relay"),
            Range.of("192.168.0.0/16", "private"),
            Range.of("198.18.0.0/15", "benchmarking"),
            Range.of("198.51.100.0/24", "documentation"),
            Range.of("203.0.113.0/24", "documentation"),
            Range.of("224.0.0.0/4", "multicast"),
            Range.of("240.0.0.0/4", "reserved"));

    private static final List<Range> IPV6 = List.of(
            Range.of("::/128", "unspecified"),
            Range.of("::1/128", LOOPBACK),
            Range.of("64:ff9b:1::/48", "local NAT64"),
            Range.of("100::/64", "discard-only"),
            Range.of("2001::/23", "IETF protocol assignments or Teredo"),
            Range.of("2001:db8::/32", "documentation"),
            Range.of("fc00::/7", "unique local or cloud metadata"),
            Range.of("fe80::/10", "link-local"),
            Range.of("fec0::/10", "site-local"),
            Range.of("ff00::/8", "multicast"));

    private static final Range IPV4_MAPPED = Range.of("::ffff:0:0/96", "IPv4-mapped");
    private static final Range IPV4_COMPATIBLE = Range.of("::/96", "IPv4-compatible");
    private static final Range NAT64 = Range.of("64:ff9b::/96", "NAT64");
    private static final Range SIX_TO_FOUR = Range.of("2002::/16", "6to4");

    private final boolean allowLoopback;

    public AddressPolicy(boolean allowLoopback) {
        this.allowLoopback = allowLoopback;
    }

    /** Why {@code address} is refused (its kind, for logs), or empty when a webhook may be delivered to it. */
    public Optional<String> refusal(InetAddress address) {
        String kind = kind(address);
        if (kind == null || (allowLoopback && LOOPBACK.equals(kind))) {
            return Optional.empty();
        }
        return Optional.of(kind);
    }

    /** The kind of a non-public address, or null for a public one. */
    private static String kind(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            return match(bytes, IPV4);
        }
        if (address instanceof Inet6Address) {
            if (IPV4_MAPPED.contains(bytes) || NAT64.contains(bytes)) {
                return embedded(bytes, 12);
            }
            if (SIX_TO_FOUR.contains(bytes)) {
                return embedded(bytes, 2);
            }
            String listed = match(bytes, IPV6);
            if (listed != null) {
                return listed;
            }
            return IPV4_COMPATIBLE.contains(bytes) ? IPV4_COMPATIBLE.label() : null;
        }
        return "unknown address family";
    }

    /** An IPv6 form of an IPv4 address has the kind of that address (a mapped loopback is loopback). */
    private static String embedded(byte[] ipv6, int offset) {
        byte[] ipv4 = new byte[4];
        System.arraycopy(ipv6, offset, ipv4, 0, 4);
        return match(ipv4, IPV4);
    }

    private static String match(byte[] bytes, List<Range> ranges) {
        for (Range range : ranges) {
            if (range.contains(bytes)) {
                return range.label();
            }
        }
        return null;
    }
}
