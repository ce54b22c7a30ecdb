#include "shim.h"

/*
 * The command line as the kernel gave it to main, kept before main runs. Swift's standard
 * library reads it from /proc/self/cmdline on Linux; without /proc (a bare chroot, a minimal
 * container) it finds no arguments at all, and a command line that ends up empty is the default
 * command: `netprobe --version` would run a check. glibc calls the executable's .init_array
 * functions with main's own argc, argv and envp, so the vector is taken from there and handed
 * to the standard library, whose every reader (the argument parser's included) then sees it.
 */

/* The standard library's override of CommandLine's source (exported by the Swift runtime since
 * Swift 5). Weak: a runtime without it leaves the standard library's own reading in place. */
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((weak));

static int np_argc = -1;
static char **np_argv;

static void np_keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (!argv) return;
    np_argc = argc;
    np_argv = argv;
    if (_swift_stdlib_overrideUnsafeArgvArgc) _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
}

__attribute__((section(".init_array"), used))
static void (*const np_keep_arguments_entry)(int, char **, char **) = np_keep_arguments;

int np_program_argc(void) { return np_argc; }

char *np_program_argument(int index) {
    if (index < 0 || index >= np_argc || !np_argv) return 0;
    return np_argv[index];
}
