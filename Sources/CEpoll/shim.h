// epoll, which Swift's Glibc module does not import: the load generator's event loop.
#include <sys/epoll.h>
