#include "shim.h"

#include <linux/filter.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <sys/socket.h>
#include <unistd.h>

int np_udp_packet_socket(const char *interface, uint16_t port) {
    unsigned int index = if_nametoindex(interface);
    if (index == 0) return -errno;
    int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -errno;
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 9),                    /* IP protocol */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_UDP, 0, 6),
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 6),                    /* flags, fragment offset */
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1fff, 4, 0),       /* a later fragment: no UDP header */
        BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),                   /* X = IP header length */
        BPF_STMT(BPF_LD | BPF_H | BPF_IND, 2),                    /* UDP destination port */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0xffff),
        BPF_STMT(BPF_RET | BPF_K, 0),
    };
    struct sock_fprog program = { .len = sizeof code / sizeof code[0], .filter = code };
    /* Bound to a protocol only once the filter is on: until then the socket receives nothing. */
    struct sockaddr_ll local = { .sll_family = AF_PACKET, .sll_protocol = htons(ETHERTYPE_IP), .sll_ifindex = (int)index };
    if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) != 0
        || bind(fd, (struct sockaddr *)&local, sizeof local) != 0) {
        int failure = errno;
        close(fd);
        return -failure;
    }
    return fd;
}
