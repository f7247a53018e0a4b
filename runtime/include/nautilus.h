/*===- nautilus.h - The Nautilus C API ------------------------------------===*
 *
 * Load compiled kernels (bundles), open devices, launch; and, with the JIT
 * library, compile `.tensor` source. Two libraries implement it:
 *   libnautilus_runtime  everything but nt_compile (no LLVM or MLIR)
 *   libnautilus_jit      nt_compile too (the compiler and the runtime)
 *
 * Conventions:
 *   - Handles are opaque pointers; each nt_*_free takes NULL too.
 *   - A function that can fail returns an nt_status: NULL on success, else
 *     an error the caller must free with nt_status_free, whose code and
 *     message say what went wrong.
 *   - Strings a handle returns live as long as the handle.
 *
 * Thread safety: every function may be called from any thread. A program
 * and a device may be shared by threads and used at once (launches of one
 * program on one device from several threads are safe; on a GPU they go
 * to the streams given). nt_compile may run in any number of threads and
 * processes at once, sharing one cache directory.
 *
 * Tensors are DLPack-like views: data pointer, dtype, shape and strides in
 * elements. The kernels take contiguous row-major tensors: strides must be
 * NULL or those of a row-major layout (a dimension of extent 1 may have
 * any stride). On the cpu and emu devices data is host memory; on cuda and
 * hip it is device memory (nt_device_alloc, or any allocation in the
 * device's primary context). A scalar's data always points to its value
 * in host memory, on every device.
 *
 * Bundles and cache entries are code that the process runs: load only
 * bundles you trust. The disk cache is used only in a directory private to
 * the user.
 *===----------------------------------------------------------------------===*/
#ifndef NAUTILUS_H
#define NAUTILUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NT_API_VERSION 1

#if defined(__GNUC__)
#define NT_EXPORT __attribute__((visibility("default")))
#else
#define NT_EXPORT
#endif

/* The version of the library, "nautilus 0.N". */
NT_EXPORT const char *nt_version(void);

/*--- Status ----------------------------------------------------------------*/

typedef enum nt_code {
  NT_OK = 0,
  NT_INVALID_ARGUMENT = 1, /* a null handle, a wrong tensor, a bad option */
  NT_NOT_FOUND = 2,        /* a file, a kernel or a device that is not there */
  NT_COMPILE_ERROR = 3, /* the source is wrong: "FILE:LINE:COL: error: ..." */
  NT_UNAVAILABLE = 4,   /* the device's driver is not installed */
  NT_CORRUPT = 5,       /* a bundle that fails its format or checksum */
  NT_LAUNCH_ERROR = 6,  /* a check before the launch, or the launch, failed */
  NT_INTERNAL = 7       /* a bug in nautilus: please report it */
} nt_code;

typedef struct nt_status_s *nt_status;

NT_EXPORT nt_code nt_status_code(nt_status status);        /* NT_OK for NULL */
NT_EXPORT const char *nt_status_message(nt_status status); /* "" for NULL */
NT_EXPORT void nt_status_free(nt_status status);

/*--- Tensors ---------------------------------------------------------------*/

typedef enum nt_dtype {
  NT_F16 = 0,
  NT_BF16 = 1,
  NT_F32 = 2,
  NT_F64 = 3,
  NT_I8 = 4,
  NT_I32 = 5,
  NT_I64 = 6,
  NT_BOOL = 7
} nt_dtype;

typedef struct nt_tensor {
  void *data; /* a scalar's: a pointer to its value */
  nt_dtype dtype;
  int32_t ndim;           /* 0 for a scalar */
  const int64_t *shape;   /* ndim extents */
  const int64_t *strides; /* ndim strides in elements, or NULL: row-major */
} nt_tensor;

/*--- Programs: compiled kernels ---------------------------------------------*/

typedef struct nt_program_s *nt_program;

/* A bundle's bytes (`nautc compile --emit bundle`, or an AOT header's
   array); the bytes are copied. */
NT_EXPORT nt_status nt_program_load(const void *bundle, size_t size,
                                    nt_program *out);
NT_EXPORT nt_status nt_program_load_file(const char *path, nt_program *out);
/* Frees the program and what it keeps on each device it ran on (nt_launch):
   call it once its launches are done. */
NT_EXPORT void nt_program_free(nt_program program);

NT_EXPORT const char *nt_program_kernel(nt_program program); /* "attention" */
NT_EXPORT const char *
nt_program_target(nt_program program); /* "cpu", "sm_90" */
/* The code of a text kind ("ptx"), or NULL when the program has none. */
NT_EXPORT const char *nt_program_code(nt_program program, const char *kind);
/* What --explain said when it was compiled ("" when nothing). */
NT_EXPORT const char *nt_program_explain(nt_program program);
/* How nt_compile got it: 0 compiled, 1 from memory, 2 from the disk cache
   (0 for a loaded bundle). */
NT_EXPORT int nt_program_cache_hit(nt_program program);

typedef enum nt_role { NT_INPUT = 0, NT_OUTPUT = 1, NT_SCALAR = 2 } nt_role;

typedef struct nt_param_info {
  const char *name;
  nt_role role;
  nt_dtype dtype;
  int32_t ndim;
} nt_param_info;

/* The tensors a launch takes, in order: inputs and scalars as the kernel
   declares them, then its outputs. */
NT_EXPORT size_t nt_program_num_params(nt_program program);
NT_EXPORT nt_status nt_program_param(nt_program program, size_t index,
                                     nt_param_info *out);
/* The extents of parameter `index` (ndim of them, into `shape`) given the
   inputs and scalars (the first parameters, in order): how a caller sizes
   the outputs. */
NT_EXPORT nt_status nt_program_param_shape(nt_program program,
                                           const nt_tensor *inputs,
                                           size_t num_inputs, size_t index,
                                           int64_t *shape);

/*--- Devices ----------------------------------------------------------------*/

typedef struct nt_device_s *nt_device;

/* kind "cpu" (ordinal 0), "cuda" (NVIDIA), "hip" (AMD), or "emu" (ordinal
   0: the SIMT emulator, running an NVIDIA bundle's kernel IR on the host;
   libnautilus_jit only). Without a driver, "cuda" and "hip" fail with
   NT_UNAVAILABLE and a message saying so. */
NT_EXPORT nt_status nt_device_open(const char *kind, int ordinal,
                                   nt_device *out);
NT_EXPORT void nt_device_free(nt_device device);
NT_EXPORT const char *nt_device_describe(nt_device device);

NT_EXPORT nt_status nt_device_alloc(nt_device device, size_t bytes, void **out);
NT_EXPORT void nt_device_free_memory(nt_device device, void *memory);
NT_EXPORT nt_status nt_device_copy_to_device(nt_device device, void *dst,
                                             const void *src, size_t bytes);
NT_EXPORT nt_status nt_device_copy_to_host(nt_device device, void *dst,
                                           const void *src, size_t bytes);

/* Checks the tensors against the program (dtypes, shapes, the kernel's
   `require` lines, alignment, the device's limits), then launches it:
   every parameter in order (nt_program_num_params of them). `stream` is a
   CUstream on cuda (a hipStream_t on hip; NULL: the default stream),
   ignored on the cpu, where the launch returns when the kernel is done. On
   a GPU the launch returns once queued, and a kernel's fault surfaces at
   the next call that waits for the stream. The program keeps its
   workspaces (the buffers between its programs), one set a stream, and on
   cuda the TMA tensor maps of each set of tensors it was launched on, so
   that a launch on tensors and sizes it has seen on that stream neither
   allocates nor waits (a new set of tensor maps is copied and waited for
   once). They are released by nt_program_free, which must come after the
   launches are done; wait for a stream's launches before destroying it.
   The program is loaded on the device at its first launch there. */
NT_EXPORT nt_status nt_launch(nt_device device, nt_program program,
                              const nt_tensor *params, size_t num_params,
                              void *stream);

/*--- The JIT (libnautilus_jit only)
 * ------------------------------------------*/

enum {
  NT_COMPILE_NO_DISK_CACHE = 1, /* neither read nor write the disk cache */
  NT_COMPILE_NO_CACHE = 2,      /* no cache at all: always compile */
  NT_COMPILE_KERNEL_IR = 4,     /* NVIDIA targets: keep the kernels' LLVM IR
                                   too, so that the emu device can run them */
  NT_COMPILE_NO_VERIFY = 8      /* skip the verifier's proofs of the tile
                                   programs (docs/verification.md) */
};

typedef struct nt_compile_options {
  size_t struct_size;   /* sizeof(nt_compile_options) */
  const char *source;   /* the .tensor source text, or NULL and: */
  const char *path;     /* a .tensor file */
  const char *kernel;   /* NULL: the file's only kernel */
  const char *target;   /* NULL: "cpu"; "sm_80", "sm_90", "gfx90a", "gfx942" */
  const char *shapes;   /* sizes fixed at compile time, "N=128,D=64", or NULL */
  const char *schedule; /* NULL: "default" (the target's: "auto" on the CPU,
                           "heuristics" on GPUs); "heuristics", "auto", or
                           a schedule file */
  const char *cache_dir; /* NULL: $NAUTILUS_CACHE_DIR, else the user's cache */
  uint32_t flags;        /* NT_COMPILE_* */
  int explain;           /* non-zero: keep what --explain says */
} nt_compile_options;

/* Compiles (or finds in the caches) the kernel. The key is a hash of the
   compiler's version, the source's tokens, the kernel, target, shapes,
   schedule (a schedule file's content) and the toolchain. */
NT_EXPORT nt_status nt_compile(const nt_compile_options *options,
                               nt_program *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NAUTILUS_H */
