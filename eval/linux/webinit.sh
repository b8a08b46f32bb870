#!/bin/busybox sh
# shellcheck shell=sh
# webinit.sh - /init of the web experiment's Linux guest (eval/web.sh, booted with two e1000
# on one QEMU hub): the same load (webnet client on eth1, an lwIP on a packet socket) against
# (a) busybox httpd on Linux's own stack at 10.0.2.15 on eth0, then (b) webnet server, the
# HiRES server's code on lwIP on a packet socket of eth0.  Each run's lines follow a
# "web-linux: server=NAME" line; "web-linux: done" ends.  The kernel command line's
# web_conns=N (300) and web_limit=S (60 virtual seconds a run at most) reach us as variables.
/bin/busybox mount -t devtmpfs dev /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
n=${web_conns:-300} limit=${web_limit:-60}

insmod /e1000.ko || echo "web-linux: insmod e1000.ko failed"
# no IPv6 chatter on the hub; ARP answered only on the card that holds the address
echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6
echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
echo 1 >/proc/sys/net/ipv4/conf/all/arp_ignore
ifconfig lo 127.0.0.1 up
for i in eth0 eth1; do
	ifconfig "$i" up || echo "web-linux: no $i"
	echo "web-linux: $i $(cat "/sys/class/net/$i/address")"
done
# both links up before any frame: the cards hold frames sent earlier
t=0
while [ "$(cat /sys/class/net/eth0/carrier /sys/class/net/eth1/carrier 2>/dev/null)" != "$(printf '1\n1')" ] && [ $t -lt 50 ]; do
	sleep 0.1
	t=$((t + 1))
done

echo "web-linux: server=busybox"
ifconfig eth0 10.0.2.15 netmask 255.255.255.0 up
httpd -f -p 80 -h /www &
pid=$!
sleep 1
/webnet client eth1 "$n" "$limit"
echo "web-linux: busybox httpd $(kill -0 $pid 2>/dev/null && echo still running || echo gone), $(pidof httpd | wc -w) httpd processes"
# SYNs Linux dropped with the listen queue full (busybox httpd listens with a short backlog)
echo "web-linux: listen queue: $(awk '/^TcpExt:/ { if (!h) { for (i = 2; i <= NF; i++) k[i] = $i; h = 1 }
	else for (i = 2; i <= NF; i++) if (k[i] ~ /^Listen/) printf "%s=%s ", k[i], $i }' /proc/net/netstat)"
kill $pid
ip addr flush dev eth0

echo "web-linux: server=lwip"
/webnet server eth0 &
pid=$!
sleep 1
/webnet client eth1 "$n" "$limit"
kill $pid

echo "web-linux: done"
poweroff -f
