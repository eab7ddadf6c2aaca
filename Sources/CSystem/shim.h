#ifndef SPLASHBOARD_CSYSTEM_SHIM_H
#define SPLASHBOARD_CSYSTEM_SHIM_H

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/cec.h>
#include <errno.h>

/// Makes glibc serve every allocation of `bytes` or more with its own mapping, returned
/// to the system when freed (mallopt(M_MMAP_THRESHOLD); the macro is not importable).
/// Setting it also stops glibc from raising the threshold after large frees.
static inline int splash_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// Names the calling thread (at most 15 bytes shown; prctl is variadic).
static inline int splash_name_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

/// Reads the range of an absolute axis of an evdev device (EVIOCGABS is a macro).
static inline int splash_evdev_abs_info(int fd, unsigned axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info);
}

/// Reads which codes of event type `type` a device reports, as a bit array of `length`
/// bytes (EVIOCGBIT is a macro); returns the bytes written or -1.
static inline int splash_evdev_bits(int fd, unsigned type, unsigned char *bits, unsigned length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits);
}

/// Reads which keys are held down now (EVIOCGKEY is a macro).
static inline int splash_evdev_key_state(int fd, unsigned char *bits, unsigned length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}

/// Reads a framebuffer's variable screen information: its mode, depth and pixel layout
/// (FBIOGET_VSCREENINFO).
static inline int splash_fb_var(int fd, struct fb_var_screeninfo *info) {
    return ioctl(fd, FBIOGET_VSCREENINFO, info);
}

/// Reads a framebuffer's fixed information: its name, memory and line length
/// (FBIOGET_FSCREENINFO).
static inline int splash_fb_fix(int fd, struct fb_fix_screeninfo *info) {
    return ioctl(fd, FBIOGET_FSCREENINFO, info);
}

/// Shows the part of the virtual screen `info` names (FBIOPAN_DISPLAY).
static inline int splash_fb_pan(int fd, struct fb_var_screeninfo *info) {
    return ioctl(fd, FBIOPAN_DISPLAY, info);
}

/// Whether the framebuffer's pixels are packed (one plane; FB_TYPE_PACKED_PIXELS) and
/// true or direct colour (not a palette).
static inline int splash_fb_is_packed_truecolor(const struct fb_fix_screeninfo *info) {
    return info->type == FB_TYPE_PACKED_PIXELS
        && (info->visual == FB_VISUAL_TRUECOLOR || info->visual == FB_VISUAL_DIRECTCOLOR);
}

/// The mode of the virtual terminal on `fd` (KDGETMODE): KD_TEXT 0, KD_GRAPHICS 1; -1 when
/// `fd` is not a virtual terminal.
static inline int splash_vt_mode(int fd) {
    int mode = 0;
    return ioctl(fd, KDGETMODE, &mode) == 0 ? mode : -1;
}

/// Sets the virtual terminal on `fd` to graphics (the text console and kernel messages no
/// longer draw on it) or back to text (KDSETMODE).
static inline int splash_vt_set_graphics(int fd, int graphics) {
    return ioctl(fd, KDSETMODE, graphics ? KD_GRAPHICS : KD_TEXT);
}

/// Where the terminal-switch signals are told: the write end of a pipe the loop polls.
static int splash_vt_signal_pipe = -1;

/// SIGUSR1 (the terminal is wanted elsewhere) writes 'R', SIGUSR2 (it is back) 'A'.
static void splash_vt_signal(int sig) {
    int saved = errno;
    char byte = sig == SIGUSR1 ? 'R' : 'A';
    if (splash_vt_signal_pipe >= 0) { ssize_t ignored = write(splash_vt_signal_pipe, &byte, 1); (void)ignored; }
    errno = saved;
}

/// Asks the kernel, for the virtual terminal on `fd`, to signal a switch away (SIGUSR1)
/// and back (SIGUSR2) and to wait for the answer (VT_SETMODE, VT_PROCESS); the signals
/// are written to `pipe_write`. 0, or -1 with errno.
static inline int splash_vt_process_mode(int fd, int pipe_write) {
    splash_vt_signal_pipe = pipe_write;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = splash_vt_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGUSR1, &action, NULL) != 0 || sigaction(SIGUSR2, &action, NULL) != 0) return -1;
    struct vt_mode mode;
    memset(&mode, 0, sizeof mode);
    mode.mode = VT_PROCESS;
    mode.relsig = SIGUSR1;
    mode.acqsig = SIGUSR2;
    return ioctl(fd, VT_SETMODE, &mode);
}

/// Back to the kernel switching terminals by itself (VT_AUTO).
static inline int splash_vt_auto_mode(int fd) {
    struct vt_mode mode;
    memset(&mode, 0, sizeof mode);
    mode.mode = VT_AUTO;
    return ioctl(fd, VT_SETMODE, &mode);
}

/// Lets a switch away go on (VT_RELDISP 1), or acknowledges a switch back (VT_ACKACQ).
static inline int splash_vt_release(int fd) { return ioctl(fd, VT_RELDISP, 1); }
static inline int splash_vt_acknowledge(int fd) { return ioctl(fd, VT_RELDISP, VT_ACKACQ); }

// GNU extensions, declared here rather than through _GNU_SOURCE (which would give this
// module a different fd_set from every other module that includes <sys/select.h>).
extern int pipe2(int pipefd[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// Makes a pipe whose ends close on exec and never block (pipe2 is a GNU extension the
/// Glibc module does not export).
static inline int splash_pipe_nonblocking(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

/// Asks a spawned child to close every descriptor from `from` on before it runs, so it
/// inherits nothing it was not given (posix_spawn_file_actions_addclosefrom_np, glibc 2.34).
static inline int splash_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

// The kernel's HDMI-CEC framework (linux/cec.h): its ioctls are macros Swift cannot call.
static inline int splash_cec_caps(int fd, struct cec_caps *caps) { return ioctl(fd, CEC_ADAP_G_CAPS, caps); }
static inline int splash_cec_phys_addr(int fd, uint16_t *address) { return ioctl(fd, CEC_ADAP_G_PHYS_ADDR, address); }
static inline int splash_cec_log_addrs(int fd, struct cec_log_addrs *addrs) { return ioctl(fd, CEC_ADAP_G_LOG_ADDRS, addrs); }
static inline int splash_cec_set_log_addrs(int fd, struct cec_log_addrs *addrs) { return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, addrs); }
static inline int splash_cec_transmit(int fd, struct cec_msg *msg) { return ioctl(fd, CEC_TRANSMIT, msg); }
/// Claims one logical address of a playback device named `name` (blocks until the
/// adapter is configured, or fails).
static inline int splash_cec_claim_playback(int fd, const char *name) {
    struct cec_log_addrs addrs;
    memset(&addrs, 0, sizeof addrs);
    addrs.cec_version = CEC_OP_CEC_VERSION_1_4;
    addrs.vendor_id = CEC_VENDOR_ID_NONE;
    addrs.num_log_addrs = 1;
    addrs.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    addrs.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    addrs.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    strncpy(addrs.osd_name, name, sizeof addrs.osd_name - 1);
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addrs);
}
static inline int splash_cec_tx_ok(const struct cec_msg *msg) { return (msg->tx_status & CEC_TX_STATUS_OK) != 0; }
static inline int splash_cec_tx_nack(const struct cec_msg *msg) { return (msg->tx_status & CEC_TX_STATUS_NACK) != 0; }
static inline int splash_cec_tx_status(const struct cec_msg *msg) { return msg->tx_status; }
static inline unsigned splash_cec_caps_flags(const struct cec_caps *caps) { return caps->capabilities; }
static inline unsigned splash_cec_cap_log_addrs(void) { return CEC_CAP_LOG_ADDRS; }
static inline unsigned splash_cec_cap_phys_addr(void) { return CEC_CAP_PHYS_ADDR; }
static inline unsigned splash_cec_cap_needs_hpd(void) { return CEC_CAP_NEEDS_HPD; }

/// Blanks (1) or unblanks (0) a framebuffer's display: its signal off and back.
static inline int splash_fb_blank(int fd, int blank) {
    return ioctl(fd, FBIOBLANK, blank ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK);
}

/// Has the kernel send `signal` to this process when its parent ends (PR_SET_PDEATHSIG).
static inline int splash_die_with_parent(int signal) { return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0); }

// Descriptors passed over a Unix socket (SCM_RIGHTS: CMSG_* are macros), shared memory
// (memfd_create, a GNU extension) and the media process's own syscall filter and limits.
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <stddef.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/audit.h>
#include <sys/syscall.h>

extern int memfd_create(const char *name, unsigned int flags);

/// Sends `length` bytes on `socket` with the descriptor `fd` beside them (SCM_RIGHTS).
/// The bytes sent, or -1 with errno.
static inline long splash_send_with_fd(int socket, const void *bytes, size_t length, int fd) {
    struct iovec io = { .iov_base = (void *)bytes, .iov_len = length };
    union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(socket, &message, MSG_NOSIGNAL);
}

/// Receives up to `length` bytes from `socket`, and the one descriptor passed with them
/// into `*fd` (-1 when none came; any more than one are closed). The bytes read (0 at the
/// end), or -1 with errno. Received descriptors close on exec.
static inline long splash_receive_with_fd(int socket, void *bytes, size_t length, int *fd) {
    struct iovec io = { .iov_base = bytes, .iov_len = length };
    union { char buffer[CMSG_SPACE(sizeof(int) * 4)]; struct cmsghdr align; } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    *fd = -1;
    long got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (got < 0) return got;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int passed;
            memcpy(&passed, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
            if (*fd < 0) *fd = passed; else close(passed);
        }
    }
    return got;
}

/// A shared-memory file of `size` bytes that closes on exec (memfd_create), sealed so that
/// it can never shrink or grow (a reader mapping it cannot be cut off mid-frame), or -1.
static inline int splash_shared_memory(const char *name, long size) {
    int fd = memfd_create(name, 1 /* MFD_CLOEXEC */ | 2 /* MFD_ALLOW_SEALING */);
    if (fd < 0) return -1;
    if (ftruncate(fd, size) != 0
        || fcntl(fd, 1033 /* F_ADD_SEALS */, 1 /* F_SEAL_SEAL */ | 2 /* F_SEAL_SHRINK */ | 4 /* F_SEAL_GROW */) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/// Whether the shared-memory file `fd` is sealed against shrinking (F_GET_SEALS): only
/// then may its pages be read without the risk of SIGBUS.
static inline int splash_shared_memory_is_sealed(int fd) {
    int seals = fcntl(fd, 1034 /* F_GET_SEALS */);
    return seals >= 0 && (seals & 2 /* F_SEAL_SHRINK */) && (seals & 1 /* F_SEAL_SEAL */);
}

/// Limits this process's address space to `bytes` (RLIMIT_AS): 0, or -1 with errno.
static inline int splash_limit_address_space(unsigned long bytes) {
    struct rlimit limit = { .rlim_cur = bytes, .rlim_max = bytes };
    return setrlimit(RLIMIT_AS, &limit);
}

#if defined(__x86_64__)
#define SPLASH_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SPLASH_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define SPLASH_AUDIT_ARCH AUDIT_ARCH_ARM
#endif

#define SPLASH_DENY(nr, err) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))

/// The media process's own syscall filter, on top of whatever its service has, for every
/// thread it has now (TSYNC) and will have, installed before a byte of the clip is read: it
/// opens no file and reaches nothing, so opening, creating, removing or renaming files, making or
/// connecting sockets, io_uring, starting programs or processes (a clone without
/// CLONE_THREAD), signalling or looking into other processes fail with EACCES/EPERM (clone3
/// with ENOSYS, so that glibc's threads fall back to clone); a call of another
/// architecture, or an x32 call, kills it. memfd_create only with `allow_memfd` (the frame
/// ring of a play). With `listener` (a play that may use a hardware decoder), `openat` is
/// not refused but handed to whoever reads `*listener` (SECCOMP_RET_USER_NOTIF; see
/// `splash_broker_start`), which answers from descriptors opened before the filter. 0, or
/// -1 with errno (with `listener`, nothing installed: call again without it).
static inline int splash_media_syscall_filter(int allow_memfd, int *listener) {
#ifdef SPLASH_AUDIT_ARCH
    unsigned self = (unsigned)getpid();
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SPLASH_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
        // tgkill (abort, raise, a thread signalled): this process's threads only.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        // clone: threads only.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x00010000 /* CLONE_THREAD */, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#ifdef __NR_clone3
        SPLASH_DENY(__NR_clone3, ENOSYS),
#endif
#ifdef __NR_fork
        SPLASH_DENY(__NR_fork, EPERM),
#endif
#ifdef __NR_vfork
        SPLASH_DENY(__NR_vfork, EPERM),
#endif
#ifdef __NR_open
        SPLASH_DENY(__NR_open, EACCES),
#endif
#ifdef __NR_creat
        SPLASH_DENY(__NR_creat, EACCES),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, listener ? SECCOMP_RET_USER_NOTIF : (SECCOMP_RET_ERRNO | EACCES)),
#ifdef __NR_openat2
        SPLASH_DENY(__NR_openat2, EACCES),
#endif
        SPLASH_DENY(__NR_open_by_handle_at, EACCES),
        SPLASH_DENY(__NR_name_to_handle_at, EACCES),
#ifdef __NR_unlink
        SPLASH_DENY(__NR_unlink, EACCES),
#endif
        SPLASH_DENY(__NR_unlinkat, EACCES),
#ifdef __NR_rename
        SPLASH_DENY(__NR_rename, EACCES),
#endif
#ifdef __NR_renameat
        SPLASH_DENY(__NR_renameat, EACCES),
#endif
        SPLASH_DENY(__NR_renameat2, EACCES),
#ifdef __NR_link
        SPLASH_DENY(__NR_link, EACCES),
#endif
        SPLASH_DENY(__NR_linkat, EACCES),
#ifdef __NR_symlink
        SPLASH_DENY(__NR_symlink, EACCES),
#endif
        SPLASH_DENY(__NR_symlinkat, EACCES),
#ifdef __NR_mkdir
        SPLASH_DENY(__NR_mkdir, EACCES),
#endif
        SPLASH_DENY(__NR_mkdirat, EACCES),
#ifdef __NR_rmdir
        SPLASH_DENY(__NR_rmdir, EACCES),
#endif
        SPLASH_DENY(__NR_truncate, EACCES),
#ifdef __NR_chmod
        SPLASH_DENY(__NR_chmod, EACCES),
#endif
        SPLASH_DENY(__NR_fchmodat, EACCES),
#ifdef __NR_chown
        SPLASH_DENY(__NR_chown, EACCES),
#endif
        SPLASH_DENY(__NR_fchownat, EACCES),
        SPLASH_DENY(__NR_socket, EPERM),
        SPLASH_DENY(__NR_socketpair, EPERM),
        SPLASH_DENY(__NR_connect, EPERM),
        SPLASH_DENY(__NR_bind, EPERM),
        SPLASH_DENY(__NR_listen, EPERM),
        SPLASH_DENY(__NR_accept, EPERM),
        SPLASH_DENY(__NR_accept4, EPERM),
        SPLASH_DENY(__NR_io_uring_setup, EPERM),
        SPLASH_DENY(__NR_io_uring_enter, EPERM),
        SPLASH_DENY(__NR_io_uring_register, EPERM),
        SPLASH_DENY(__NR_execve, EPERM),
        SPLASH_DENY(__NR_execveat, EPERM),
        SPLASH_DENY(__NR_ptrace, EPERM),
        SPLASH_DENY(__NR_process_vm_readv, EPERM),
        SPLASH_DENY(__NR_process_vm_writev, EPERM),
        SPLASH_DENY(__NR_kill, EPERM),
        SPLASH_DENY(__NR_tkill, EPERM),
        SPLASH_DENY(__NR_rt_sigqueueinfo, EPERM),
        SPLASH_DENY(__NR_rt_tgsigqueueinfo, EPERM),
        SPLASH_DENY(__NR_pidfd_open, EPERM),
        SPLASH_DENY(__NR_pidfd_send_signal, EPERM),
        SPLASH_DENY(__NR_pidfd_getfd, EPERM),
        // Nothing planted, marked or changed on a file it was handed, no kernel object
        // made for another (FIFOs and devices, extended attributes, times, modes, owners),
        // and nothing of the system's (mounts, namespaces, modules, keys, clocks, BPF).
#ifdef __NR_mknod
        SPLASH_DENY(__NR_mknod, EACCES),
#endif
#ifdef __NR_mknodat
        SPLASH_DENY(__NR_mknodat, EACCES),
#endif
#ifdef __NR_setxattr
        SPLASH_DENY(__NR_setxattr, EPERM),
#endif
#ifdef __NR_lsetxattr
        SPLASH_DENY(__NR_lsetxattr, EPERM),
#endif
#ifdef __NR_fsetxattr
        SPLASH_DENY(__NR_fsetxattr, EPERM),
#endif
#ifdef __NR_removexattr
        SPLASH_DENY(__NR_removexattr, EPERM),
#endif
#ifdef __NR_lremovexattr
        SPLASH_DENY(__NR_lremovexattr, EPERM),
#endif
#ifdef __NR_fremovexattr
        SPLASH_DENY(__NR_fremovexattr, EPERM),
#endif
#ifdef __NR_utime
        SPLASH_DENY(__NR_utime, EPERM),
#endif
#ifdef __NR_utimes
        SPLASH_DENY(__NR_utimes, EPERM),
#endif
#ifdef __NR_futimesat
        SPLASH_DENY(__NR_futimesat, EPERM),
#endif
#ifdef __NR_utimensat
        SPLASH_DENY(__NR_utimensat, EPERM),
#endif
#ifdef __NR_userfaultfd
        SPLASH_DENY(__NR_userfaultfd, EPERM),
#endif
#ifdef __NR_memfd_secret
        SPLASH_DENY(__NR_memfd_secret, EPERM),
#endif
#ifdef __NR_fchmod
        SPLASH_DENY(__NR_fchmod, EPERM),
#endif
#ifdef __NR_fchown
        SPLASH_DENY(__NR_fchown, EPERM),
#endif
#ifdef __NR_fchmodat2
        SPLASH_DENY(__NR_fchmodat2, EPERM),
#endif
#ifdef __NR_lchown
        SPLASH_DENY(__NR_lchown, EPERM),
#endif
#ifdef __NR_mount
        SPLASH_DENY(__NR_mount, EPERM),
#endif
#ifdef __NR_umount2
        SPLASH_DENY(__NR_umount2, EPERM),
#endif
#ifdef __NR_pivot_root
        SPLASH_DENY(__NR_pivot_root, EPERM),
#endif
#ifdef __NR_chroot
        SPLASH_DENY(__NR_chroot, EPERM),
#endif
#ifdef __NR_unshare
        SPLASH_DENY(__NR_unshare, EPERM),
#endif
#ifdef __NR_setns
        SPLASH_DENY(__NR_setns, EPERM),
#endif
#ifdef __NR_bpf
        SPLASH_DENY(__NR_bpf, EPERM),
#endif
#ifdef __NR_perf_event_open
        SPLASH_DENY(__NR_perf_event_open, EPERM),
#endif
#ifdef __NR_kexec_load
        SPLASH_DENY(__NR_kexec_load, EPERM),
#endif
#ifdef __NR_kexec_file_load
        SPLASH_DENY(__NR_kexec_file_load, EPERM),
#endif
#ifdef __NR_init_module
        SPLASH_DENY(__NR_init_module, EPERM),
#endif
#ifdef __NR_finit_module
        SPLASH_DENY(__NR_finit_module, EPERM),
#endif
#ifdef __NR_delete_module
        SPLASH_DENY(__NR_delete_module, EPERM),
#endif
#ifdef __NR_add_key
        SPLASH_DENY(__NR_add_key, EPERM),
#endif
#ifdef __NR_request_key
        SPLASH_DENY(__NR_request_key, EPERM),
#endif
#ifdef __NR_keyctl
        SPLASH_DENY(__NR_keyctl, EPERM),
#endif
#ifdef __NR_swapon
        SPLASH_DENY(__NR_swapon, EPERM),
#endif
#ifdef __NR_swapoff
        SPLASH_DENY(__NR_swapoff, EPERM),
#endif
#ifdef __NR_reboot
        SPLASH_DENY(__NR_reboot, EPERM),
#endif
#ifdef __NR_acct
        SPLASH_DENY(__NR_acct, EPERM),
#endif
#ifdef __NR_quotactl
        SPLASH_DENY(__NR_quotactl, EPERM),
#endif
#ifdef __NR_sethostname
        SPLASH_DENY(__NR_sethostname, EPERM),
#endif
#ifdef __NR_setdomainname
        SPLASH_DENY(__NR_setdomainname, EPERM),
#endif
#ifdef __NR_settimeofday
        SPLASH_DENY(__NR_settimeofday, EPERM),
#endif
#ifdef __NR_clock_settime
        SPLASH_DENY(__NR_clock_settime, EPERM),
#endif
#ifdef __NR_clock_adjtime
        SPLASH_DENY(__NR_clock_adjtime, EPERM),
#endif
#ifdef __NR_adjtimex
        SPLASH_DENY(__NR_adjtimex, EPERM),
#endif
#ifdef __NR_open_tree
        SPLASH_DENY(__NR_open_tree, EPERM),
#endif
#ifdef __NR_move_mount
        SPLASH_DENY(__NR_move_mount, EPERM),
#endif
#ifdef __NR_fsopen
        SPLASH_DENY(__NR_fsopen, EPERM),
#endif
#ifdef __NR_fsconfig
        SPLASH_DENY(__NR_fsconfig, EPERM),
#endif
#ifdef __NR_fsmount
        SPLASH_DENY(__NR_fsmount, EPERM),
#endif
#ifdef __NR_fspick
        SPLASH_DENY(__NR_fspick, EPERM),
#endif
#ifdef __NR_mount_setattr
        SPLASH_DENY(__NR_mount_setattr, EPERM),
#endif
#ifdef __NR_fanotify_init
        SPLASH_DENY(__NR_fanotify_init, EPERM),
#endif
#ifdef __NR_fanotify_mark
        SPLASH_DENY(__NR_fanotify_mark, EPERM),
#endif
#ifdef __NR_inotify_init
        SPLASH_DENY(__NR_inotify_init, EPERM),
#endif
#ifdef __NR_inotify_init1
        SPLASH_DENY(__NR_inotify_init1, EPERM),
#endif
#ifdef __NR_process_madvise
        SPLASH_DENY(__NR_process_madvise, EPERM),
#endif
#ifdef __NR_syslog
        SPLASH_DENY(__NR_syslog, EPERM),
#endif
#ifdef __NR_ioperm
        SPLASH_DENY(__NR_ioperm, EPERM),
#endif
#ifdef __NR_iopl
        SPLASH_DENY(__NR_iopl, EPERM),
#endif
#ifdef __NR_modify_ldt
        SPLASH_DENY(__NR_modify_ldt, EPERM),
#endif
#ifdef __NR_lookup_dcookie
        SPLASH_DENY(__NR_lookup_dcookie, EPERM),
#endif
        // Shared memory only where frames go back to the display (play), never in a probe.
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_memfd_create, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, allow_memfd ? SECCOMP_RET_ALLOW : (SECCOMP_RET_ERRNO | EPERM)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = { .len = (unsigned short)(sizeof filter / sizeof filter[0]), .filter = filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    // Every thread at once (TSYNC): any made before the filter (the runtime's) get it too.
    if (listener) {
        // TSYNC_ESRCH: the only way TSYNC and a listener go together (kernel 5.7).
        long fd = syscall(__NR_seccomp, 1 /* SECCOMP_SET_MODE_FILTER */,
                          SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC_ESRCH,
                          &program);
        if (fd < 0) return -1;
        *listener = (int)fd;
        return 0;
    }
    long done = syscall(__NR_seccomp, 1 /* SECCOMP_SET_MODE_FILTER */, 1 /* SECCOMP_FILTER_FLAG_TSYNC */, &program);
    if (done == 0) return 0;
    if (errno != ENOSYS && errno != EPERM && errno != EINVAL) return -1;
    // Without the seccomp call (a service filter that refuses it): the calling thread, as
    // before any other thread is made.
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}


#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <linux/videodev2.h>

/// Whether `fd` is a V4L2 memory-to-memory decoder FFmpeg has a decoder for (H.264, HEVC
/// or VP9 on its compressed side), asked with VIDIOC_QUERYCAP and VIDIOC_ENUM_FMT only.
static inline int splash_v4l2_is_decoder(int fd) {
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (ioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) return 0;
    unsigned caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    if (!(caps & V4L2_CAP_STREAMING)) return 0;
    unsigned type;
    if (caps & V4L2_CAP_VIDEO_M2M_MPLANE) type = V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
    else if (caps & V4L2_CAP_VIDEO_M2M) type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    else return 0;
    for (unsigned i = 0; i < 64; i++) {
        struct v4l2_fmtdesc format;
        memset(&format, 0, sizeof format);
        format.index = i;
        format.type = type;
        if (ioctl(fd, VIDIOC_ENUM_FMT, &format) != 0) return 0;
        unsigned f = format.pixelformat;
        if (f == V4L2_PIX_FMT_H264 || f == V4L2_PIX_FMT_HEVC || f == V4L2_PIX_FMT_VP9) return 1;
    }
    return 0;
}

/// A descriptor opened before the media filter, handed out for an `openat` of exactly
/// `path`: a file once (it is then the caller's alone, as if it had opened it), a
/// directory (`reusable`) each time, read from its start.
struct splash_handout { char path[256]; int fd; int reusable; };

/// What answers the filter's listener: the handouts left, under `lock`.
struct splash_broker {
    int listener;
    int count;
    int finished;
    pthread_mutex_t lock;
    struct splash_handout table[16];
};

/// Takes the handout for `path` (-1: none), the caller's to close: a file's own descriptor
/// (its row emptied, `*row` says which), a folder's a duplicate made under the lock (so
/// that `finish` closing the folder meanwhile cannot let its number name another file).
static inline int splash_broker_take(struct splash_broker *broker, const char *path, int *row) {
    int fd = -1;
    *row = -1;
    pthread_mutex_lock(&broker->lock);
    for (int i = 0; !broker->finished && i < broker->count; i++) {
        struct splash_handout *h = &broker->table[i];
        if (h->fd < 0 || strcmp(h->path, path) != 0) continue;
        if (h->reusable) {
            lseek(h->fd, 0, SEEK_SET);
            fd = fcntl(h->fd, F_DUPFD_CLOEXEC, 0);
        } else {
            fd = h->fd;
            h->fd = -1;
            *row = i;
        }
        break;
    }
    pthread_mutex_unlock(&broker->lock);
    return fd;
}

/// Puts a file's handout back in its row when it could not be handed over (the call was
/// interrupted: its retry gets it), or closes it once the broker is finished.
static inline void splash_broker_give_back(struct splash_broker *broker, int row, int fd) {
    pthread_mutex_lock(&broker->lock);
    if (row >= 0 && !broker->finished && broker->table[row].fd < 0) {
        broker->table[row].fd = fd;
        fd = -1;
    }
    pthread_mutex_unlock(&broker->lock);
    if (fd >= 0) close(fd);
}

/// The broker's thread: every `openat` of the process (the filter sends each here) is
/// answered with its handout, put in the caller's descriptor table by the kernel
/// (SECCOMP_IOCTL_NOTIF_ADDFD), or refused with EACCES as the filter would. It opens
/// nothing itself (its own `openat` would wait for itself): the path only chooses among
/// what was opened before the filter, so a path changed under it gains nothing. The path is
/// read in this process's own memory: a caller that passes a pointer to nothing crashes the
/// process (as its own code could anyway).
static inline void *splash_broker_run(void *argument) {
    struct splash_broker *broker = (struct splash_broker *)argument;
    for (;;) {
        struct seccomp_notif request;
        memset(&request, 0, sizeof request);
        if (ioctl(broker->listener, SECCOMP_IOCTL_NOTIF_RECV, &request) != 0) {
            if (errno == EINTR || errno == ENOENT) continue;
            return NULL;  // the listener is gone: the kernel refuses what waits (ENOSYS)
        }
        // The path of openat(dirfd, path, flags, mode), in this very process's memory; only
        // an absolute path can name a handout.
        char path[sizeof broker->table[0].path] = {0};
        const char *asked = (const char *)(uintptr_t)request.data.args[1];
        if (asked && request.data.nr == __NR_openat) strncpy(path, asked, sizeof path - 1);
        int row = -1;
        int fd = path[0] == '/' ? splash_broker_take(broker, path, &row) : -1;
        if (fd >= 0) {
            struct seccomp_notif_addfd add;
            memset(&add, 0, sizeof add);
            add.id = request.id;
            add.flags = SECCOMP_ADDFD_FLAG_SEND;
            add.srcfd = (unsigned)fd;
            add.newfd_flags = (request.data.args[2] & O_CLOEXEC) ? O_CLOEXEC : 0;
            long sent = ioctl(broker->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
            if (sent >= 0) {
                close(fd);
                continue;
            }
            // Not handed over (kernels before 5.14 have no ADDFD_FLAG_SEND, and an interrupted
            // call is gone): a file's handout waits for the next ask, a folder's copy goes.
            if (row >= 0) splash_broker_give_back(broker, row, fd);
            else close(fd);
        }
        struct seccomp_notif_resp response;
        memset(&response, 0, sizeof response);
        response.id = request.id;
        response.error = -EACCES;
        ioctl(broker->listener, SECCOMP_IOCTL_NOTIF_SEND, &response);
    }
}

/// Starts answering the filter's `listener` from `count` handouts (at most 16; their
/// descriptors become the broker's); NULL, with errno, when no thread could be made.
static inline struct splash_broker *splash_broker_start(int listener, const struct splash_handout *table, int count) {
    struct splash_broker *broker = (struct splash_broker *)calloc(1, sizeof *broker);
    if (!broker) return NULL;
    broker->listener = listener;
    broker->count = count < 16 ? count : 16;
    memcpy(broker->table, table, sizeof table[0] * (size_t)broker->count);
    pthread_mutex_init(&broker->lock, NULL);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // A small stack: it holds a path and a request (aarch64's glibc allows no less than 128 KiB).
    size_t stack = 64 << 10;
    if (stack < (size_t)PTHREAD_STACK_MIN) stack = (size_t)PTHREAD_STACK_MIN;
    pthread_attr_setstacksize(&attributes, stack);
    int made = pthread_create(&thread, &attributes, splash_broker_run, broker);
    pthread_attr_destroy(&attributes);
    if (made != 0) {
        free(broker);
        errno = made;
        return NULL;
    }
    return broker;
}

/// Closes what was not handed out; every later `openat` is refused.
static inline void splash_broker_finish(struct splash_broker *broker) {
    pthread_mutex_lock(&broker->lock);
    broker->finished = 1;
    for (int i = 0; i < broker->count; i++) {
        if (broker->table[i].fd >= 0) close(broker->table[i].fd);
        broker->table[i].fd = -1;
    }
    pthread_mutex_unlock(&broker->lock);
}


#include <sys/xattr.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdio.h>

/// How many calls `splash_try_forbidden` knows.
static inline int splash_forbidden_count(void) { return 10; }

/// Tries forbidden call `i` — one a compromised media process would use to plant a FIFO
/// in the cache, mark or change a file it was handed, or reach beyond itself — on `file`
/// (an existing file) or in `dir`; `*result` is 0 when it went through, else its errno.
/// Its name, for the report.
static inline const char *splash_try_forbidden(int i, const char *dir, const char *file, int *result) {
    char path[4096];
    snprintf(path, sizeof path, "%s/planted-%d", dir, i);
    long r = -1;
    const char *name = "?";
    errno = 0;
    switch (i) {
    case 0: name = "mknodat (a FIFO)"; r = mknodat(AT_FDCWD, path, S_IFIFO | 0644, 0); break;
    case 1: name = "mknodat (a file)"; r = mknodat(AT_FDCWD, path, S_IFREG | 0644, 0); break;
    case 2: name = "setxattr"; r = setxattr(file, "user.splashboard", "1", 1, 0); break;
    case 3: name = "utimensat"; r = utimensat(AT_FDCWD, file, NULL, 0); break;
    case 4: name = "userfaultfd"; r = syscall(__NR_userfaultfd, 0); break;
    case 5: name = "memfd_create"; r = memfd_create("splashboard-check", 0); break;
    case 6: name = "openat"; r = openat(AT_FDCWD, file, O_RDONLY | O_CLOEXEC); break;
    case 7: name = "socket"; r = socket(AF_INET, SOCK_STREAM, 0); break;
    case 8: name = "fchmodat"; r = fchmodat(AT_FDCWD, file, 0600, 0); break;
    case 9: name = "unshare"; r = syscall(__NR_unshare, 0x10000000 /* CLONE_NEWUSER */); break;
    }
    *result = r >= 0 ? 0 : (errno ? errno : -1);
    if (r >= 0 && (i == 4 || i == 5 || i == 6 || i == 7)) close((int)r);
    return name;
}

#endif
