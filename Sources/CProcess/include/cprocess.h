// The process calls Swift's Glibc module does not expose.
#ifndef TOUCHGEST_CPROCESS_H
#define TOUCHGEST_CPROCESS_H

#include <signal.h>
#include <sys/types.h>

// pidfd_open(2): a descriptor that becomes readable when the process exits, so a
// single-threaded poll loop can reap children without SIGCHLD. -1 and errno on failure.
int cprocess_pidfd_open(pid_t pid);

// gettid(2): the calling thread's id, as /proc/self/task names it (Swift's Glibc module
// does not show glibc's gettid).
pid_t cprocess_thread_id(void);

// pipe2(2) with O_CLOEXEC on both ends (Swift's Glibc module hides pipe2).
int cprocess_pipe_cloexec(int fds[2]);

// Blocks `signals` for the calling thread and returns a signalfd(2) that becomes
// readable when one arrives, so the poll loop handles signals like input.
// -1 and errno on failure.
int cprocess_signalfd(const sigset_t *signals);

// Reads one pending signal from a signalfd; returns its number, or -1.
int cprocess_read_signal(int fd);

// F_SETPIPE_SZ: sets a pipe's kernel buffer to at least `bytes` (rounded up to a page).
// Returns the size set, or -1 and errno.
int cprocess_set_pipe_size(int fd, int bytes);

// Bytes waiting in the pipe of `fd` (either end), or -1 with errno: FIONREAD, whose
// ioctl Swift cannot call (variadic).
int cprocess_pipe_queued(int fd);

// A listening Unix stream socket at `path`, non-blocking and close-on-exec, made with
// mode 0600 (no moment exists with a wider mode). -1 and errno on failure;
// ENAMETOOLONG when the path does not fit in sockaddr_un.
int cprocess_unix_listen(const char *path, int backlog);

// A blocking, close-on-exec connection to the Unix stream socket at `path`; -1 and errno.
int cprocess_unix_connect(const char *path);

// The same without waiting: a non-blocking, close-on-exec connection, made or queued at
// once; otherwise -1 and errno, EAGAIN when the listener's backlog is full (where a
// blocking connect would wait for as long as nobody accepts), ECONNREFUSED when nothing
// listens at `path`.
int cprocess_unix_connect_nonblocking(const char *path);

// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC; -1 and errno.
int cprocess_accept(int fd);

// sendmsg(2) of `length` bytes with one descriptor passed alongside (SCM_RIGHTS), not
// waiting (MSG_DONTWAIT | MSG_NOSIGNAL): what a Wayland request with an fd argument needs.
// Returns the bytes sent, or -1 and errno.
long cprocess_send_with_fd(int socket, const void *bytes, unsigned long length, int fd);

// memfd_create(2) with MFD_CLOEXEC: an anonymous file, for a keymap handed to a compositor.
int cprocess_memfd(const char *name);

// malloc_trim(0): gives the heap's free memory back to the system (glibc keeps it).
void cprocess_trim_heap(void);

// mallopt(M_MMAP_THRESHOLD, bytes): blocks of at least `bytes` get their own mapping, given
// back when freed. Setting it also stops glibc raising the threshold by itself.
void cprocess_map_large_blocks(int bytes);

// An epoll set (epoll_create1 with EPOLL_CLOEXEC), or -1 and errno.
int cprocess_epoll_create(void);

// Watches `fd` for reading in the set, level-triggered, tagged with `key`; 0, or -1 and errno.
// (Here, not in Swift: struct epoll_event is packed on x86-64, which Swift cannot lay out.)
int cprocess_epoll_add(int epoll, int fd, unsigned long long key);

// Stops watching `fd`; 0, or -1 and errno (ENOENT or EBADF once it was closed).
int cprocess_epoll_remove(int epoll, int fd);

// epoll_wait(2): the keys of up to `capacity` ready descriptors (readable, or in error or
// hung up); the count, or -1 and errno.
int cprocess_epoll_wait(int epoll, unsigned long long *keys, int capacity, int timeout);

// Starts `path` with `argv` and `envp` as touchgest starts every command (rule commands
// and stream commands), and returns its pid, or -1 with the reason in *error (an errno:
// execve's when the program could not start, else clone's, setpgid's, open's or dup3's).
// The child gets `stdin_fd` as its standard input (/dev/null when -1) and `stderr_fd` as
// its standard error (the daemon's when -1), keeps the daemon's standard output, leads a
// process group of its own (so stopping it stops what it started), and starts with no
// signal blocked and every signal at its default, whatever the daemon blocks, handles or
// ignores, and may run on every CPU the daemon may (it is made on the caller's CPU, where
// the caller sleeps until its execve, and takes the caller's set back before it). *pidfd
// gets a pidfd for it, or -1 on a kernel before 5.3 (which cannot poll one).
//
// glibc's posix_spawn, with touchgest's pidfd_open after it, made more system calls (a
// stack mapped and unmapped for each child, the file actions checked against the
// descriptor limit): this clones with CLONE_VM | CLONE_VFORK | CLONE_PIDFD on a stack in
// the caller's own frame, which is safe because the caller sleeps until the child has
// called execve or exited, and the child makes system calls only.
pid_t cprocess_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stderr_fd, int *pidfd, int *error);

#endif
