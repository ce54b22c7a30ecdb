#define _GNU_SOURCE /* struct in_pktinfo */
#include "shim.h"

#include <linux/filter.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h> /* sockaddr_ll, tpacket_auxdata */
#include <string.h>
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
    int on = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) != 0
        || setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &on, sizeof on) != 0
        || bind(fd, (struct sockaddr *)&local, sizeof local) != 0) {
        int failure = errno;
        close(fd);
        return -failure;
    }
    return fd;
}

long np_packet_receive(int fd, uint8_t *buffer, size_t capacity, int *checksum_ready) {
    struct iovec part = { .iov_base = buffer, .iov_len = capacity };
    union {
        char bytes[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
        struct cmsghdr align;
    } control;
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes,
                              .msg_controllen = sizeof control.bytes };
    ssize_t count = recvmsg(fd, &message, 0);
    if (count < 0) return -errno;
    *checksum_ready = 1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_PACKET && header->cmsg_type == PACKET_AUXDATA) {
            struct tpacket_auxdata aux;
            memcpy(&aux, CMSG_DATA(header), sizeof aux);
            if (aux.tp_status & TP_STATUS_CSUMNOTREADY) *checksum_ready = 0;
        }
    }
    return (long)count;
}

long np_udp_send_from(int fd, const uint8_t *bytes, size_t length, unsigned int ifindex, const uint8_t *source,
                      const uint8_t *destination, uint16_t port) {
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
    memcpy(&to.sin_addr, destination, 4);
    struct iovec part = { .iov_base = (void *)bytes, .iov_len = length };
    union {
        char bytes[CMSG_SPACE(sizeof(struct in_pktinfo))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_name = &to, .msg_namelen = sizeof to, .msg_iov = &part, .msg_iovlen = 1,
                              .msg_control = control.bytes, .msg_controllen = sizeof control.bytes };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = IPPROTO_IP;
    header->cmsg_type = IP_PKTINFO;
    header->cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo));
    struct in_pktinfo info = { .ipi_ifindex = (int)ifindex };
    memcpy(&info.ipi_spec_dst, source, 4);
    memcpy(CMSG_DATA(header), &info, sizeof info);
    ssize_t sent = sendmsg(fd, &message, MSG_NOSIGNAL);
    return sent < 0 ? -errno : (long)sent;
}
