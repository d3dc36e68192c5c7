package dev.modelgateway.net;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

class AddressClassTest {
    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "0.0.0.0", "0.1.2.3", "100.64.0.1", "100.127.255.255", "198.18.0.1", "224.0.0.1",
            "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
            "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::7f00:1", "64:ff9b::a9fe:a9fe", "2002:c0a8:0101::1", "2001:db8::1"})
    void nonPublic(String address) throws Exception {
        assertThat(AddressClass.nonPublicReason(InetAddress.getByName(address))).as(address).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700:4700::1111",
            "2a00:1450:4007:80c::200e", "::ffff:8.8.8.8", "2002:0808:0808::1"})
    void publicAddresses(String address) throws Exception {
        assertThat(AddressClass.nonPublicReason(InetAddress.getByName(address))).as(address).isNull();
    }
}
