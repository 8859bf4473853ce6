// The C ABI shared by generated code (JIT and ahead-of-time) and its callers.
// Kept plain C so that AOT headers and user programs need nothing else from Halo.
#ifndef HALO_RUNTIME_H
#define HALO_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum halo_type_code_t {
    halo_type_int = 0,
    halo_type_uint = 1,
    halo_type_float = 2,
} halo_type_code_t;

// One dimension of a buffer: coordinates min .. min+extent-1, stride in elements.
typedef struct halo_dimension_t {
    int32_t min, extent, stride, flags;
} halo_dimension_t;

// A strided view of memory, in the spirit of halide_buffer_t. Pipelines check every buffer on
// entry and return an error code (after reporting through the error handler) unless: the
// buffer and its host pointer are non-NULL, the type and dimension count are the expected
// ones, dim points to `dimensions` entries, every extent is >= 0 (with min + extent - 1 in
// 32 bits), dimension 0 has stride 1 (unless the pipeline was compiled with dim(0).set_stride),
// the buffer covers what the pipeline reads or writes, and no output shares memory with an
// input or another output (pipelines do not run in place; a split's shifted last vector, for
// one, computes points again from an input it may already have overwritten).
typedef struct halo_buffer_t {
    uint8_t *host;
    uint8_t type_code;   // a halo_type_code_t
    uint8_t type_bits;   // 1 (bool), 8, 16, 32 or 64
    uint16_t reserved;
    int32_t dimensions;
    halo_dimension_t *dim;
} halo_buffer_t;

// Error codes returned by pipelines. 0 is success.
enum {
    halo_error_code_success = 0,
    halo_error_code_generic = -1,
    halo_error_code_null_buffer = -2,
    halo_error_code_bad_type = -3,
    halo_error_code_bad_dimensions = -4,
    halo_error_code_access_out_of_bounds = -5,
    halo_error_code_out_of_memory = -6,
    halo_error_code_bad_extent = -7,
    halo_error_code_bad_stride = -8,
    halo_error_code_bad_split_factor = -9,
    halo_error_code_constraint_violated = -10,
    halo_error_code_specialize_fail = -11,
    halo_error_code_param_out_of_range = -12,
    halo_error_code_requirement_failed = -13,
    halo_error_code_buffers_overlap = -14,
    halo_error_code_unaligned_host = -15,
};

// Memory that pipelines reuse across calls: a freed buffer goes back to the arena and the
// next allocation of a similar size takes it, so repeated calls do not pay for malloc, page
// faults and unmapping of large intermediates each time.
typedef struct halo_arena_t halo_arena_t;
halo_arena_t *halo_arena_create(void);
void halo_arena_destroy(halo_arena_t *arena);
// Bytes the arena holds (in use or free).
int64_t halo_arena_bytes(const halo_arena_t *arena);
// Marks the end of one call of the pipeline the arena serves. The arena stays bounded: a free
// block that no allocation took in the last `keep_calls` calls goes back to the system (so
// after one call at a large size, calls at a small size soon hold only what they use).
void halo_arena_end_call(halo_arena_t *arena, int keep_calls);
// Returns every block not in use to the system.
void halo_arena_release_unused(halo_arena_t *arena);
// The calls after which an unused free block goes back (the policy of JIT pipelines and of
// halo_context_end_call).
#define HALO_ARENA_KEEP_CALLS 4

typedef void (*halo_error_handler_t)(void *user_context, const char *message);

// What a pipeline's user_context argument points to (or NULL: no arena, no user data).
typedef struct halo_context_t {
    halo_arena_t *arena;  // may be NULL
    void *user;           // passed through untouched, for the caller's error handler
    // Receives this call's run-time errors (called with the context as user_context); NULL:
    // the process-wide handler (halo_set_error_handler). Calls with their own handler can run
    // at the same time, each getting only its own errors.
    halo_error_handler_t error_handler;
} halo_context_t;

// Marks the end of a call made with this context (ahead-of-time functions' _with_context entry
// points call it before they return): applies the arena's policy, halo_arena_end_call(arena,
// HALO_ARENA_KEEP_CALLS). Does nothing for NULL or a context without an arena.
void halo_context_end_call(halo_context_t *context);

// Replace the function that receives run-time error messages (default: print to stderr).
// Returns the previous handler. Passing NULL restores the default.
halo_error_handler_t halo_set_error_handler(halo_error_handler_t handler);

// print() and print_when() in pipelines: each evaluation makes one line (ending in '\n') and
// passes it to the print handler (default: write to stderr). Returns the previous handler;
// NULL restores the default. The handler may be called from several threads at once.
typedef void (*halo_print_handler_t)(void *user_context, const char *line);
halo_print_handler_t halo_set_print_handler(halo_print_handler_t handler);

// Called by generated code.
void halo_error(void *user_context, const char *message);
// One print() line: count values, each an int64, uint64, double (its bits) or C string
// (its pointer) as kinds[i] says. As Halide's, a float prints as printf's %f does and a double
// as %e (kind halo_print_double).
enum { halo_print_int = 0, halo_print_uint = 1, halo_print_float = 2, halo_print_string = 3, halo_print_double = 4 };
void halo_print(void *user_context, int32_t count, const int32_t *kinds, const int64_t *values);
// A require() whose condition failed: reports "Requirement Failed: (condition) message" (the
// message printed from values as halo_print prints them), naming the Func, and returns
// halo_error_code_requirement_failed.
int32_t halo_error_requirement_failed(void *user_context, const char *func_name, const char *condition,
                                      int32_t count, const int32_t *kinds, const int64_t *values);
// Checks a buffer argument as pipelines do on entry (see halo_buffer_t): buf and its host
// non-NULL, the type (code, bits), the dimension count, a non-NULL dim array, stride 1 in
// dimension 0 if dense_dim0, every extent (>= 0, min + extent - 1 in 32 bits), and the host
// pointer a multiple of host_alignment bytes where that is above 1 (set_host_alignment).
// Reports the first failure through the error functions below and returns its code, or 0.
int32_t halo_check_buffer(void *user_context, const halo_buffer_t *buf, const char *buffer_name,
                          int32_t type_code, int32_t type_bits, int32_t dimensions, int32_t dense_dim0,
                          int32_t host_alignment);
// A host pointer not aligned as set_host_alignment(alignment) promised.
int32_t halo_error_unaligned_host(void *user_context, const char *buffer_name, const void *host,
                                  int32_t alignment);
int32_t halo_error_null_buffer(void *user_context, const char *buffer_name);
int32_t halo_error_bad_type(void *user_context, const char *buffer_name, int32_t got_code,
                            int32_t got_bits, int32_t want_code, int32_t want_bits);
int32_t halo_error_bad_dimensions(void *user_context, const char *buffer_name, int32_t got,
                                  int32_t want);
// An input too small; `producing` says for what ("output 'f'", "outputs 'f' and 'g'").
int32_t halo_error_bounds(void *user_context, const char *buffer_name, const char *producing,
                          int32_t dim, int64_t have_min, int64_t have_max, int64_t need_min,
                          int64_t need_max);
int32_t halo_error_output_bounds(void *user_context, const char *output_name, const char *dim_name,
                                 int64_t have_min, int64_t have_max, int64_t write_min,
                                 int64_t write_max, const char *hint);
int32_t halo_error_output_bound(void *user_context, const char *output_name, const char *dim_name,
                                const char *directive, int64_t bound_min, int64_t bound_max, int64_t want_min,
                                int64_t want_max);
// An output of a pipeline with several outputs is computed over its buffer only; a later
// output reads it outside that. Returns halo_error_code_access_out_of_bounds.
int32_t halo_error_output_read(void *user_context, const char *output_name, const char *reader,
                               const char *dim_name, int64_t have_min, int64_t have_max, int64_t need_min,
                               int64_t need_max);
// Func::fold_storage: `needed` rows of dimension dim are needed at once (by one iteration of a
// sliding window, or by the whole realization), more than the fold keeps. Returns
// halo_error_code_access_out_of_bounds.
int32_t halo_error_fold_storage(void *user_context, const char *func_name, const char *dim_name, int32_t needed,
                                int32_t fold, const char *hint);
// Func::bound_storage: `needed` of dimension dim are computed at once, more than the `bound`
// its buffer was given. Returns halo_error_code_access_out_of_bounds.
int32_t halo_error_bound_storage(void *user_context, const char *func_name, const char *dim_name, int32_t needed,
                                 int32_t bound);
// The buffers of a Tuple-valued output (one per value) must cover the same region: buffer
// `value` differs from buffer 0 in dimension dim. Returns halo_error_code_access_out_of_bounds.
int32_t halo_error_realization_mismatch(void *user_context, const char *func_name, int32_t value, int32_t dim,
                                        int32_t min0, int32_t extent0, int32_t min, int32_t extent);
// A buffer breaks a constraint the pipeline was compiled with (ImageParam::dim(d).set_min(...),
// Func::output_buffer().dim(d)...): field is "min", "extent" or "stride"; directive names the
// call that set it. Returns halo_error_code_constraint_violated.
int32_t halo_error_buffer_constraint(void *user_context, const char *buffer_name, const char *field, int32_t dim,
                                     int64_t got, int64_t want, const char *directive);
int32_t halo_error_func_bound(void *user_context, const char *func_name, const char *dim_name,
                              const char *directive, int64_t bound_min, int64_t bound_max, int64_t need_min,
                              int64_t need_max);
int32_t halo_error_bounds_overflow(void *user_context, const char *bound_name, int64_t value);
int32_t halo_error_rdom_overflow(void *user_context, const char *stage_name, const char *rvar_name,
                                 int32_t min, int32_t extent);
int32_t halo_error_align_modulus(void *user_context, const char *directive, int32_t modulus);
int32_t halo_error_split_factor(void *user_context, const char *stage_name, const char *directive,
                                const char *var_name, int32_t factor);
int32_t halo_error_bad_stride(void *user_context, const char *buffer_name, int32_t stride);
// No specialization's condition held for a stage scheduled with specialize_fail(message);
// returns halo_error_code_specialize_fail.
// A scalar Param's value lies outside its range (Param::set_range): below bound, or above it
// if is_max. Returns halo_error_code_param_out_of_range.
int32_t halo_error_param_range_i64(void *user_context, const char *param_name, int64_t value, int64_t bound,
                                   int32_t is_max);
int32_t halo_error_param_range_u64(void *user_context, const char *param_name, uint64_t value, uint64_t bound,
                                   int32_t is_max);
int32_t halo_error_param_range_f64(void *user_context, const char *param_name, double value, double bound,
                                   int32_t is_max);
int32_t halo_error_specialize_fail(void *user_context, const char *stage_name, const char *message);
// A buffer with dimensions > 0 but a NULL dim array; returns halo_error_code_null_buffer.
int32_t halo_error_null_dim(void *user_context, const char *buffer_name, int32_t dimensions);
// A dimension whose extent is negative, or whose last coordinate (min + extent - 1) does not
// fit in 32 bits; returns halo_error_code_bad_extent.
int32_t halo_error_bad_extent(void *user_context, const char *buffer_name, int32_t dim, int32_t min,
                              int32_t extent);
int32_t halo_error_out_of_memory(void *user_context, const char *func_name, int64_t bytes);
// Pipelines check at entry that no output shares memory with an input or another output:
// returns 0 if the elements of buffers a and b (already checked: non-NULL host, dim array,
// extents) touch no common byte, else reports an error naming both and returns
// halo_error_code_buffers_overlap. Buffers whose byte spans overlap count as disjoint when one
// of two tests proves their elements never meet: channels interleaved in one image (the offset
// between the buffers is no multiple of their strides' common divisor), or rows interleaved,
// or tiles side by side in one image (their rows fall in disjoint intervals modulo the common
// divisor of the outer strides). Layouts that need a finer proof are refused.
// Here a is an output; b is an input, or another output if b_is_output.
int32_t halo_check_buffers_disjoint(void *user_context, const halo_buffer_t *a, const char *a_name,
                                    const halo_buffer_t *b, const char *b_name, int32_t b_is_output);
// The same for every pair of a pipeline's buffers at once: buffers[0, num_outputs) are its
// outputs, the rest its inputs (inputs may share memory with each other: they are only read).
// Beyond 4 buffers only pairs whose byte spans intersect are tested (after sorting the spans),
// so a pipeline of many outputs pays n log n, not n^2; the first failing pair, in the order
// output 0 against the later outputs and then the inputs, output 1 likewise..., is reported.
int32_t halo_check_outputs_disjoint(void *user_context, const halo_buffer_t *const *buffers,
                                    const char *const *names, int32_t num_outputs, int32_t num_buffers);
void *halo_malloc(void *user_context, int64_t bytes);
void halo_free(void *user_context, void *ptr);

// Runs body(closure, i) for i in [min, min+extent) on the calling thread and Halo's worker
// threads. Returns the first nonzero code any iteration returned, or 0 (the iterations after a
// failure are skipped). Workers spin briefly after a loop, then sleep.
typedef int32_t (*halo_task_t)(void *closure, int32_t index);
int32_t halo_parallel_for(void *user_context, halo_task_t body, int32_t min, int32_t extent,
                          void *closure);
// Threads a parallel loop runs on, the caller's included: HALO_NUM_THREADS (or else
// OMP_NUM_THREADS) from the environment, or else the number of CPUs. Setting n <= 0 restores
// that default. Returns the previous value.
int halo_set_num_threads(int n);
int halo_get_num_threads(void);

// The lock of one point of a Func, for an atomic() update of a Tuple-valued Func (element: the
// address of the point's first value). Spin locks: the update between them is short.
void halo_atomic_lock(const void *element);
void halo_atomic_unlock(const void *element);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HALO_RUNTIME_H
