/* SPDX-License-Identifier: MIT */
/*
 * udp-port.c - print a UDP port on 127.0.0.1 that was free a moment ago
 * (the system's choice for a socket bound to port 0), for the tests that
 * start a server which cannot report the port it bound itself.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
		perror("udp-port");
		return 1;
	}
	printf("%u\n", (unsigned)ntohs(a.sin_port));
	close(fd);
	return 0;
}
