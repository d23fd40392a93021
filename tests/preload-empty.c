/* preload-empty.c: a shared object that does nothing, the tests' stand-in for an allocator a
 * configuration preloads (the loader loads it; a run of it is a run of that configuration).
 * Built without the project's CFLAGS: the commands it is preloaded into carry no sanitizer. */
int rt_preload_empty(void);

int rt_preload_empty(void)
{
	return 0;
}
