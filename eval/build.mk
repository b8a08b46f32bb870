# eval/build.mk - the evaluation (eval/README.md): the Linux counterpart of the benchmarks
# and its initramfs.  The recipes, `make eval` and `make eval-quick` are in the top Makefile.
LBENCH_SRC := eval/linux/lbench.c rm/benchline.c eval/linux/guest.h
LBENCH := $(B)/eval/linux/lbench
LBENCH_CPIO := $(B)/eval/linux/lbench.cpio
# the server comparison runs the real policies on the host (eval/servers.sh)
SERVERS_SRC := eval/servers/servers.c $(POLICY_CORE)
SERVERS_BIN := $(B)/eval/servers
# the web experiment's Linux guest (eval/web.sh): lwIP on a packet socket, with our client
# and server, and the page busybox httpd serves beside it, from pages.c
WEBNET_SRCS := eval/linux/webnet.c subsystems/web/client.c subsystems/web/httpd.c \
	subsystems/web/http.c subsystems/web/pages.c
WEBNET := $(B)/eval/linux/webnet
WEB_PAGE := $(B)/eval/linux/index.html
WEB_CPIO := $(B)/eval/linux/web.cpio
WEB_BUSYBOX := /bin/busybox
# the IRQ-latency counterpart (eval/linux.sh): lirq as /init with the guest kernel's e1000.ko
LIRQ_SRC := eval/linux/lirq.c rm/benchline.c eval/linux/guest.h
LIRQ := $(B)/eval/linux/lirq
LIRQ_CPIO := $(B)/eval/linux/irq.cpio
