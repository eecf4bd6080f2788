/* trace_io: an LD_PRELOAD shim that records every write and sync made to files under one folder.
 *
 * Used by tests/powerloss/ to model a power cut the way SQLite's own crash tests do: the trace says,
 * in call order, what was written where and when it was made durable, so tests/powerloss/rebuild.py
 * can rebuild the files as a disk would hold them after the power went at any point of the trace.
 *
 *   cc -shared -fPIC -O2 -o trace_io.so trace_io.c -ldl -lpthread
 *   TRACE_IO_DIR=/abs/dir TRACE_IO_FILE=/abs/trace.bin LD_PRELOAD=./trace_io.so python workload.py
 *
 * Only paths under TRACE_IO_DIR are traced (the folder itself too, so a directory fsync is seen).
 * A record is appended only after the real call succeeded: a write whose call never returned before
 * the cut is not in the trace, which is the same as a write the disk never got.
 *
 * Not seen: writes through mmap (SQLite's -shm, which is never trusted after a crash), descriptors
 * made by dup(), and O_APPEND (write() records the position lseek reports before the call). The
 * harness checks after each run that the trace rebuilds the real files byte for byte.
 *
 * Record layout (little-endian): u32 op, u32 path_len, u32 path2_len, u32 pad, u64 offset,
 * u64 length, then path, path2 and, for a write, `length` bytes of data.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum { OP_OPEN = 1, OP_WRITE = 2, OP_TRUNCATE = 3, OP_SYNC = 4, OP_UNLINK = 5, OP_RENAME = 6 };
/* OP_OPEN's offset field carries these, so the rebuild knows a file was created or emptied. */
enum { OPEN_CREATED = 1, OPEN_TRUNCATED = 2 };

#define MAX_FDS 65536

struct record {
    uint32_t op, path_len, path2_len, pad;
    uint64_t offset, length;
};

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static char traced_dir[PATH_MAX];
static size_t traced_dir_len;
static int trace_fd = -1;
static char *fd_paths[MAX_FDS];

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);
static int (*real_unlink)(const char *);
static int (*real_unlinkat)(int, const char *, int);
static int (*real_rename)(const char *, const char *);

static void resolve(void) {
    if (real_write) return;
    real_open = dlsym(RTLD_NEXT, "open");
    real_open64 = dlsym(RTLD_NEXT, "open64");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_openat64 = dlsym(RTLD_NEXT, "openat64");
    real_writev = dlsym(RTLD_NEXT, "writev");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
    real_ftruncate64 = dlsym(RTLD_NEXT, "ftruncate64");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_close = dlsym(RTLD_NEXT, "close");
    real_unlink = dlsym(RTLD_NEXT, "unlink");
    real_unlinkat = dlsym(RTLD_NEXT, "unlinkat");
    real_rename = dlsym(RTLD_NEXT, "rename");
    real_write = dlsym(RTLD_NEXT, "write");
}

__attribute__((constructor)) static void trace_init(void) {
    resolve();
    const char *dir = getenv("TRACE_IO_DIR");
    const char *file = getenv("TRACE_IO_FILE");
    if (!dir || !file || strlen(dir) >= sizeof traced_dir) return;
    strcpy(traced_dir, dir);
    traced_dir_len = strlen(traced_dir);
    while (traced_dir_len > 1 && traced_dir[traced_dir_len - 1] == '/') traced_dir[--traced_dir_len] = 0;
    trace_fd = real_open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

/* The absolute form of `path` (opened relative to `dirfd`) if it lies under the traced folder. */
static char *traced_path(int dirfd, const char *path) {
    if (trace_fd < 0 || !path) return NULL;
    char full[PATH_MAX];
    if (path[0] == '/') {
        if (strlen(path) >= sizeof full) return NULL;
        strcpy(full, path);
    } else {
        char base[PATH_MAX];
        if (dirfd == AT_FDCWD || dirfd < 0) {
            if (!getcwd(base, sizeof base)) return NULL;
        } else if (dirfd < MAX_FDS && fd_paths[dirfd]) {
            strcpy(base, fd_paths[dirfd]);
        } else {
            return NULL;
        }
        if (strlen(base) + 1 + strlen(path) >= sizeof full) return NULL;
        strcpy(full, base);
        strcat(full, "/");
        strcat(full, path);
    }
    if (strncmp(full, traced_dir, traced_dir_len) != 0) return NULL;
    if (full[traced_dir_len] != 0 && full[traced_dir_len] != '/') return NULL;
    return strdup(full);
}

static void write_all(const struct iovec *iov, int count) {
    struct iovec parts[8];
    memcpy(parts, iov, sizeof(struct iovec) * (size_t)count);
    struct iovec *at = parts;
    while (count > 0) {
        ssize_t n = real_writev(trace_fd, at, count);
        if (n < 0) {
            if (errno == EINTR) continue;
            abort(); /* a trace with a hole would prove nothing */
        }
        while (count > 0 && (size_t)n >= at->iov_len) {
            n -= (ssize_t)at->iov_len;
            at++;
            count--;
        }
        if (count > 0) {
            at->iov_base = (char *)at->iov_base + n;
            at->iov_len -= (size_t)n;
        }
    }
}

static void emit(uint32_t op, const char *path, const char *path2, uint64_t offset, uint64_t length,
                 const void *data) {
    struct record r = {op, (uint32_t)strlen(path), path2 ? (uint32_t)strlen(path2) : 0, 0, offset, length};
    struct iovec iov[4] = {
        {&r, sizeof r}, {(void *)path, r.path_len}, {(void *)(path2 ? path2 : ""), r.path2_len},
        {(void *)data, data ? length : 0}};
    write_all(iov, 4);
}

static const char *fd_path(int fd) {
    return (trace_fd >= 0 && fd >= 0 && fd < MAX_FDS) ? fd_paths[fd] : NULL;
}

static int after_open(int fd, char *path, int flags, int existed) {
    if (!path) return fd;
    if (fd >= 0 && fd < MAX_FDS) {
        uint64_t how = (existed ? 0 : OPEN_CREATED) | ((flags & O_TRUNC) ? OPEN_TRUNCATED : 0);
        emit(OP_OPEN, path, NULL, how, 0, NULL);
        free(fd_paths[fd]);
        fd_paths[fd] = path;
    } else {
        free(path);
    }
    return fd;
}

static int traced_open(int (*real)(int, const char *, int, ...), int dirfd, const char *path, int flags,
                       mode_t mode) {
    resolve();
    char *full = traced_path(dirfd, path);
    if (!full) return real(dirfd, path, flags, mode);
    pthread_mutex_lock(&lock);
    struct stat st;
    int existed = stat(full, &st) == 0;
    int fd = real(dirfd, path, flags, mode);
    after_open(fd, full, flags, existed);
    pthread_mutex_unlock(&lock);
    return fd;
}

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    resolve();
    return traced_open(real_openat, AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    resolve();
    return traced_open(real_openat64, AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    resolve();
    return traced_open(real_openat, dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    resolve();
    return traced_open(real_openat64, dirfd, path, flags, mode);
}

static ssize_t traced_pwrite(ssize_t (*real)(int, const void *, size_t, off_t), int fd, const void *buf,
                             size_t count, off_t offset) {
    resolve();
    if (!fd_path(fd)) return real(fd, buf, count, offset);
    pthread_mutex_lock(&lock);
    ssize_t n = real(fd, buf, count, offset);
    if (n > 0 && fd_path(fd)) emit(OP_WRITE, fd_path(fd), NULL, (uint64_t)offset, (uint64_t)n, buf);
    pthread_mutex_unlock(&lock);
    return n;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    resolve();
    return traced_pwrite(real_pwrite, fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    resolve();
    return traced_pwrite(real_pwrite64, fd, buf, count, offset);
}

ssize_t write(int fd, const void *buf, size_t count) {
    resolve();
    if (!fd_path(fd)) return real_write(fd, buf, count);
    pthread_mutex_lock(&lock);
    off_t at = lseek(fd, 0, SEEK_CUR);
    ssize_t n = real_write(fd, buf, count);
    if (n > 0 && at >= 0) emit(OP_WRITE, fd_path(fd), NULL, (uint64_t)at, (uint64_t)n, buf);
    pthread_mutex_unlock(&lock);
    return n;
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    resolve();
    if (!fd_path(fd)) return real_writev(fd, iov, iovcnt);
    pthread_mutex_lock(&lock);
    off_t at = lseek(fd, 0, SEEK_CUR);
    ssize_t n = real_writev(fd, iov, iovcnt);
    ssize_t left = n;
    for (int i = 0; i < iovcnt && left > 0 && at >= 0; i++) {
        size_t part = (size_t)left < iov[i].iov_len ? (size_t)left : iov[i].iov_len;
        if (part) emit(OP_WRITE, fd_path(fd), NULL, (uint64_t)at, part, iov[i].iov_base);
        at += (off_t)part;
        left -= (ssize_t)part;
    }
    pthread_mutex_unlock(&lock);
    return n;
}

static int traced_truncate(int (*real)(int, off_t), int fd, off_t length) {
    resolve();
    if (!fd_path(fd)) return real(fd, length);
    pthread_mutex_lock(&lock);
    int rc = real(fd, length);
    if (rc == 0) emit(OP_TRUNCATE, fd_path(fd), NULL, 0, (uint64_t)length, NULL);
    pthread_mutex_unlock(&lock);
    return rc;
}

int ftruncate(int fd, off_t length) {
    resolve();
    return traced_truncate(real_ftruncate, fd, length);
}

int ftruncate64(int fd, off_t length) {
    resolve();
    return traced_truncate(real_ftruncate64, fd, length);
}

static int traced_sync(int (*real)(int), int fd) {
    resolve();
    if (!fd_path(fd)) return real(fd);
    pthread_mutex_lock(&lock);
    int rc = real(fd);
    if (rc == 0) emit(OP_SYNC, fd_path(fd), NULL, 0, 0, NULL);
    pthread_mutex_unlock(&lock);
    return rc;
}

int fsync(int fd) {
    resolve();
    return traced_sync(real_fsync, fd);
}

int fdatasync(int fd) {
    resolve();
    return traced_sync(real_fdatasync, fd);
}

int close(int fd) {
    resolve();
    if (!fd_path(fd)) return real_close(fd);
    pthread_mutex_lock(&lock);
    free(fd_paths[fd]);
    fd_paths[fd] = NULL;
    int rc = real_close(fd);
    pthread_mutex_unlock(&lock);
    return rc;
}

int unlink(const char *path) {
    resolve();
    char *full = traced_path(AT_FDCWD, path);
    if (!full) return real_unlink(path);
    pthread_mutex_lock(&lock);
    int rc = real_unlink(path);
    if (rc == 0) emit(OP_UNLINK, full, NULL, 0, 0, NULL);
    pthread_mutex_unlock(&lock);
    free(full);
    return rc;
}

int unlinkat(int dirfd, const char *path, int flags) {
    resolve();
    char *full = traced_path(dirfd, path);
    if (!full) return real_unlinkat(dirfd, path, flags);
    pthread_mutex_lock(&lock);
    int rc = real_unlinkat(dirfd, path, flags);
    if (rc == 0) emit(OP_UNLINK, full, NULL, 0, 0, NULL);
    pthread_mutex_unlock(&lock);
    free(full);
    return rc;
}

int rename(const char *from, const char *to) {
    resolve();
    char *full_from = traced_path(AT_FDCWD, from);
    char *full_to = traced_path(AT_FDCWD, to);
    if (!full_from && !full_to) return real_rename(from, to);
    pthread_mutex_lock(&lock);
    int rc = real_rename(from, to);
    if (rc == 0) emit(OP_RENAME, full_from ? full_from : "", full_to ? full_to : "", 0, 0, NULL);
    pthread_mutex_unlock(&lock);
    free(full_from);
    free(full_to);
    return rc;
}
