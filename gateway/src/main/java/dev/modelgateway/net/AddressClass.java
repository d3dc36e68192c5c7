package dev.modelgateway.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Which addresses the gateway may connect to when a URL comes from outside its configuration: the media fetcher's
 * (a caller's URL) and the alert webhook (an administrator's). Anything that can reach the gateway's own host or
 * network (loopback, private ranges, link-local with cloud metadata at 169.254.169.254, CGNAT, ULA,
 * multicast, reserved) is not public; IPv6 forms that embed an IPv4 address are judged by that address.
 */
public final class AddressClass {
    private AddressClass() {
    }

    /** @return null when {@code a} is a public unicast address, else what it is (for the error message) */
    public static String nonPublicReason(InetAddress a) {
        if (a instanceof Inet6Address v6) {
            Inet4Address embedded = embeddedIpv4(v6.getAddress());
            if (embedded != null) return nonPublicReason(embedded);
            byte[] b = v6.getAddress();
            if ((b[0] & 0xfe) == 0xfc) return "a private (unique local) address";
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
                return "a documentation address";
            }
        }
        if (a.isLoopbackAddress()) return "a loopback address";
        if (a.isAnyLocalAddress()) return "the unspecified address";
        if (a.isLinkLocalAddress()) return "a link-local address";
        if (a.isSiteLocalAddress()) return "a private address";
        if (a.isMulticastAddress()) return "a multicast address";
        if (a instanceof Inet4Address v4) {
            byte[] b = v4.getAddress();
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 0) return "a reserved address";
            if (first == 100 && second >= 64 && second < 128) return "a private (carrier-grade NAT) address";
            if (first == 198 && (second == 18 || second == 19)) return "a reserved (benchmarking) address";
            if (first >= 240) return "a reserved address";
        }
        return null;
    }

    /** IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). */
    private static Inet4Address embeddedIpv4(byte[] b) {
        boolean zeroTo9 = true;
        for (int i = 0; i < 10; i++) zeroTo9 &= b[i] == 0;
        boolean mapped = zeroTo9 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = zeroTo9 && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0);
        boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
        if (mapped || compatible || nat64) return v4(b, 12);
        if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) return v4(b, 2);
        return null;
    }

    private static Inet4Address v4(byte[] b, int from) {
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[]{b[from], b[from + 1], b[from + 2], b[from + 3]});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always a valid address
        }
    }
}
