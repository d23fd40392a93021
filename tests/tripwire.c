/* tripwire.c: LD_PRELOAD'ed into gnuplot by the tests: every way gnuplot could run a command
 * (backquotes and system() go through popen, `system`/`!` through system, pipes in `set
 * output` and `load '<'` through popen; fork and the exec family for anything else) is
 * refused and written to $RT_TRIPWIRE_LOG, so a test sees that a script tried to run
 * something. Built without the project's CFLAGS: gnuplot carries no sanitizer. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void trip(const char *what, const char *cmd)
{
	const char *log = getenv("RT_TRIPWIRE_LOG");
	int fd = open(log && *log ? log : "/dev/stderr", O_WRONLY | O_CREAT | O_APPEND, 0644);

	if (fd >= 0) {
		dprintf(fd, "tripwire: gnuplot called %s(%s)\n", what, cmd ? cmd : "");
		close(fd);
	}
	errno = EPERM;
}

FILE *popen(const char *cmd, const char *mode)
{
	(void)mode;
	trip("popen", cmd);
	return NULL;
}

int system(const char *cmd)
{
	trip("system", cmd);
	return -1;
}

pid_t fork(void)
{
	trip("fork", NULL);
	return -1;
}

pid_t vfork(void)
{
	trip("vfork", NULL);
	return -1;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	(void)argv, (void)envp;
	trip("execve", path);
	return -1;
}

int execv(const char *path, char *const argv[])
{
	(void)argv;
	trip("execv", path);
	return -1;
}

int execvp(const char *file, char *const argv[])
{
	(void)argv;
	trip("execvp", file);
	return -1;
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	(void)argv, (void)envp;
	trip("execvpe", file);
	return -1;
}

int execl(const char *path, const char *arg, ...)
{
	(void)arg;
	trip("execl", path);
	return -1;
}

int execlp(const char *file, const char *arg, ...)
{
	(void)arg;
	trip("execlp", file);
	return -1;
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	(void)pid, (void)fa, (void)attr, (void)argv, (void)envp;
	trip("posix_spawn", path);
	return EPERM;
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	(void)pid, (void)fa, (void)attr, (void)argv, (void)envp;
	trip("posix_spawnp", file);
	return EPERM;
}
