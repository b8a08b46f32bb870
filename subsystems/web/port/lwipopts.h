/*
 * lwipopts.h - how we build lwIP (Debian's source package, fetched by mk/lwip.sh): the raw
 * API only (NO_SYS: no threads, no locks, no sockets), IPv4 and TCP over Ethernet.  One
 * lwIP instance runs on one network thread of a subsystem (subsystems/web/ringif.c) or of
 * a Linux process (eval/linux), which alone calls into it, so lwIP needs no protection.
 *
 * Sizes: a server keeps up to HTTPD_CONNS connections (the eval's clients keep 20, the
 * robustness test holds idle ones open and floods SYNs beside them); a frame ring holds 64
 * frames, and the pbuf pool a little more.
 */
#ifndef LWIPOPTS_H
#define LWIPOPTS_H

#define NO_SYS		      1
#define SYS_LIGHTWEIGHT_PROT  0
#define LWIP_SOCKET	      0
#define LWIP_NETCONN	      0
#define LWIP_IPV4	      1
#define LWIP_IPV6	      0
#define LWIP_ARP	      1
#define LWIP_ETHERNET	      1
#define LWIP_ICMP	      1
#define LWIP_TCP	      1
#define LWIP_UDP	      0
#define LWIP_RAW	      0
#define LWIP_DHCP	      0
#define LWIP_AUTOIP	      0
#define LWIP_IGMP	      0
#define LWIP_DNS	      0
#define LWIP_STATS	      0
#define LWIP_NETIF_LOOPBACK   0
#define LWIP_HAVE_LOOPIF      0
#define LWIP_SINGLE_NETIF     1
#define LWIP_CHECKSUM_ON_COPY 0
#define IP_REASSEMBLY	      0 /* nobody fragments to us: a frame is at most one MTU */
#define IP_FRAG		      0

#define MEM_ALIGNMENT		8
#define MEM_SIZE		(256 * 1024)
#define MEMP_NUM_PBUF		64
#define PBUF_POOL_SIZE		96
#define MEMP_NUM_TCP_PCB	96 /* HTTPD_CONNS open, HTTPD_BACKLOG half open, and TIME_WAIT */
#define MEMP_NUM_TCP_PCB_LISTEN 2
#define MEMP_NUM_TCP_SEG	256
#define MEMP_NUM_SYS_TIMEOUT	8
#define ARP_TABLE_SIZE		8
#define ARP_QUEUEING \
	1 /* keep every frame sent while an address is asked for:
				       * without it, 19 of the client's 20 first SYNs were lost,
				       * and with lwIP's default of 3 a frame, 17 of the server's
				       * first SYN-ACKs */
#define ARP_QUEUE_LEN		      64
#define MEMP_NUM_ARP_QUEUE	      64
#define ETHARP_SUPPORT_STATIC_ENTRIES 0

#define TCP_MSS			   1460
#define TCP_WND			   (8 * TCP_MSS)
#define TCP_SND_BUF		   (8 * TCP_MSS)
#define TCP_SND_QUEUELEN	   (4 * TCP_SND_BUF / TCP_MSS)
#define TCP_LISTEN_BACKLOG	   1 /* a SYN flood fills the backlog, not our memory */
#define TCP_DEFAULT_LISTEN_BACKLOG 16
#define LWIP_TCP_KEEPALIVE	   0
#define TCP_QUEUE_OOSEQ		   0
#define LWIP_CALLBACK_API	   1

#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_NETIF_LINK_CALLBACK   0

#define LWIP_RAND() ((u32_t) lwip_port_rand())
unsigned lwip_port_rand(void);

#endif
