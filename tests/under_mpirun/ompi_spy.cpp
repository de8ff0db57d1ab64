// Which Open MPI 4.1 coll/base algorithm ran: a test-only preload library.
// Debian's Open MPI is built without debug output, so neither
// coll_tuned_verbose nor coll_base_verbose names the algorithm coll/tuned
// picks for a call (its messages are compiled out). coll/tuned
// (mca_coll_tuned.so) calls the algorithms in libmpi.so across the library
// boundary, so a preloaded function of the same name runs instead: it says
// on stderr, on rank 0, which one with its segment size and fan-out, and
// forwards to the real one (dlsym RTLD_NEXT). Prototypes as in Open MPI
// 4.1's ompi/mca/coll/base/coll_base_functions.h, with opaque handles.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" {

typedef struct ompi_datatype_t* Type;
typedef struct ompi_op_t* Op;
typedef struct ompi_communicator_t* Comm;
typedef struct mca_coll_base_module_t* Module;

static void say(const char* name, long segsize, long fanout) {
  const char* rank = getenv("OMPI_COMM_WORLD_RANK");
  if (rank && atoi(rank) == 0) fprintf(stderr, "ompi_spy: %s segsize %ld fanout %ld\n", name, segsize, fanout);
}

#define REAL(name, type) \
  static type real;      \
  if (!real) real = reinterpret_cast<type>(dlsym(RTLD_NEXT, #name))

#define BCAST(name, extra_decl, extra_args, seg, fan)                                                    \
  int ompi_coll_base_bcast_intra_##name(void* b, int n, Type t, int root, Comm c, Module m extra_decl) { \
    typedef int (*fn)(void*, int, Type, int, Comm, Module extra_decl);                                   \
    REAL(ompi_coll_base_bcast_intra_##name, fn);                                                         \
    say("bcast_" #name, seg, fan);                                                                       \
    return real(b, n, t, root, c, m extra_args);                                                         \
  }
#define COMMA ,
BCAST(basic_linear, , , 0, 0)
BCAST(pipeline, COMMA uint32_t s, COMMA s, static_cast<long>(s), 0)
BCAST(split_bintree, COMMA uint32_t s, COMMA s, static_cast<long>(s), 0)
BCAST(binomial, COMMA uint32_t s, COMMA s, static_cast<long>(s), 0)
BCAST(scatter_allgather, COMMA uint32_t s, COMMA s, static_cast<long>(s), 0)
BCAST(scatter_allgather_ring, COMMA uint32_t s, COMMA s, static_cast<long>(s), 0)

#define REDUCE(name, extra_decl, extra_args, seg, fan)                                                      \
  int ompi_coll_base_reduce_intra_##name(const void* in, void* out, int n, Type t, Op op, int root, Comm c, \
                                         Module m extra_decl) {                                             \
    typedef int (*fn)(const void*, void*, int, Type, Op, int, Comm, Module extra_decl);                     \
    REAL(ompi_coll_base_reduce_intra_##name, fn);                                                           \
    say("reduce_" #name, seg, fan);                                                                         \
    return real(in, out, n, t, op, root, c, m extra_args);                                                  \
  }
REDUCE(basic_linear, , , 0, 0)
REDUCE(chain, COMMA uint32_t s COMMA int f COMMA int r, COMMA s COMMA f COMMA r, static_cast<long>(s), f)
REDUCE(pipeline, COMMA uint32_t s COMMA int r, COMMA s COMMA r, static_cast<long>(s), 0)
REDUCE(binary, COMMA uint32_t s COMMA int r, COMMA s COMMA r, static_cast<long>(s), 0)
REDUCE(binomial, COMMA uint32_t s COMMA int r, COMMA s COMMA r, static_cast<long>(s), 0)
REDUCE(in_order_binary, COMMA uint32_t s COMMA int r, COMMA s COMMA r, static_cast<long>(s), 0)

#define ALLREDUCE(name, extra_decl, extra_args, seg)                                                 \
  int ompi_coll_base_allreduce_intra_##name(const void* in, void* out, int n, Type t, Op op, Comm c, \
                                            Module m extra_decl) {                                   \
    typedef int (*fn)(const void*, void*, int, Type, Op, Comm, Module extra_decl);                   \
    REAL(ompi_coll_base_allreduce_intra_##name, fn);                                                 \
    say("allreduce_" #name, seg, 0);                                                                 \
    return real(in, out, n, t, op, c, m extra_args);                                                 \
  }
ALLREDUCE(nonoverlapping, , , 0)
ALLREDUCE(recursivedoubling, , , 0)
ALLREDUCE(ring, , , 0)
ALLREDUCE(ring_segmented, COMMA uint32_t s, COMMA s, static_cast<long>(s))
ALLREDUCE(redscat_allgather, , , 0)

}  // extern "C"
