// pr: the partitioned reduction of seed 001 (PR, Figs. 2-3). The vector is
// cut into K partitions, K = the socket's S processes; partition k belongs
// to socket rank k. The GPU computes the partitions one after the other;
// each completion fires a callback (run by the rank's stream actor, see
// below) that copies the partition to the host and sends it
// to its owner (the seed's intra-socket ireduce "by rank k"). The owner adds
// the S − 1 contributions to its own copy, allreduces the partition across
// the owners of every socket of every node (its lane, 2N processes on N
// nodes of two sockets), and the socket allgathers the partitions (the
// seed's "rebuild"). Reductions start while later partitions still compute.
//
// Per rank there are two actors: the rank (waits for its own partition,
// reduces, allreduces, rebuilds) and its GPU stream. The stream runs the K
// kernels in order (sharing the GPU fairly with the other processes on it),
// each followed by its host callback (cudaLaunchHostFunc): the callback
// starts callback_latency after the kernel ends, copies the partition and
// makes it ready. A host function blocks the stream work queued after it,
// so kernel k + 1 starts only when callback k returns: one actor doing
// kernel, callback, kernel, ... in turn is that stream. Each copy pays the
// link latency: K partitions cost K callback latencies and K copy latencies
// where native and multilane pay one copy latency (the seed's explanation of
// PR's loss on small vectors). The sends to the owners are partitioned
// channels (partitioned.hpp) of one partition each, made ready from the
// callback.
//
// Cost, with c processes per GPU, per-partition kernel time T_k = c·F·n/(K·speed),
// callback latency L and copy time C_k = latency + c·8n/(K·link bandwidth):
// the last partition is on every host after K·(T_k + L + C_k); then one
// partition's send and ⊕ (γ·(S−1)·8n/K), the lane allreduce of 8n/K bytes
// over 2N ranks (library, Open MPI selector; γ·(8n/K)(2N−1)/(2N) charged
// after it) and the socket allgather of the vector (library). The
// reductions of earlier partitions overlap the later kernels and copies.
//
// Reading of the seed: Fig. 2's size_k = n / size drops the remainder when
// size ∤ n; partitions here are ⌈n/K⌉ elements (the last ones shorter or
// empty). Fig. 2 waits for the ireduces with waitany and starts the
// iallreduce when the own partition's completes; the rank has nothing else
// to do meanwhile, so it waits for that reduction alone and runs a blocking
// allreduce. Communicators are made once per run, not per call as Fig. 3's
// _init would; channel set-up (MPI_*_init) is local and costs no time.
// Memory: the vector and S slots of ⌈n/K⌉ doubles on each rank.
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_call.hpp"
#include "partitioned.hpp"

namespace sg4 = simgrid::s4u;

namespace collsim::sim::gpu {

namespace {

// What the rank shares with its stream actor. On the rank's stack: the rank
// joins the stream before it returns.
class Pipeline {
 public:
  explicit Pipeline(const GpuCall& call);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void stream();    // GPU stream actor: per partition the kernel, then its callback (wait L, copy, send)
  void reduce();    // the rank: its partition, reduced over the socket
  void allreduce_across_sockets();
  void rebuild();
  void check() const;  // throws if the stream hit an MPI error

 private:
  Elements part(int k) const { return partition(call_.elements, parts_, k); }
  std::unique_ptr<HostBuffer> make_slots() const;

  const GpuCall& call_;
  const RankContext& ctx_;
  const int parts_, own_;
  std::vector<PRequest> to_owner_;   // [k]: this rank's partition k to socket rank k
  std::vector<PRequest> from_peer_;  // [r]: socket rank r's copy of the own partition
  std::unique_ptr<HostBuffer> slots_;  // [r]: ⌈n/K⌉ doubles from socket rank r (own slot unused)
  sg4::SemaphorePtr own_copied_ = sg4::Semaphore::create(0);  // the own partition is on the host
  std::string error_;
};

Pipeline::Pipeline(const GpuCall& call)
    : call_(call),
      ctx_(call.ctx),
      parts_(static_cast<int>(call.ctx.pf.procs_per_socket)),
      own_(call.ctx.socket_rank),
      to_owner_(parts_, nullptr),
      from_peer_(parts_, nullptr),
      slots_(make_slots()) {
  const int64_t slot = part(0).count();
  const Elements mine = part(own_);
  for (int k = 0; k < parts_; ++k) {
    if (k == own_) continue;
    const Elements e = part(k);
    if (psend_init(call_.data + e.begin, 1, static_cast<int>(e.count()), MPI_DOUBLE, k, 0, ctx_.socket_comm,
                   &to_owner_[k]) != MPI_SUCCESS ||
        precv_init(slots_->data() + k * slot, 1, static_cast<int>(mine.count()), MPI_DOUBLE, k, 0, ctx_.socket_comm,
                   &from_peer_[k]) != MPI_SUCCESS ||
        pstart(to_owner_[k]) != MPI_SUCCESS || pstart(from_peer_[k]) != MPI_SUCCESS)
      error_ = "cannot set up the channels with socket rank " + std::to_string(k);
  }
}

// K slots of ⌈n/K⌉; if the vector is sampled, each slot keeps private the
// offsets of the own partition's private elements, the only ones it feeds.
std::unique_ptr<HostBuffer> Pipeline::make_slots() const {
  const int64_t slot = part(0).count(), n = parts_ * slot;
  if (!call_.host.sampled()) return std::make_unique<HostBuffer>(n);
  const Elements mine = part(own_);
  std::vector<Elements> keep;
  for (const Elements& e : call_.host.private_ranges()) {
    const int64_t b = std::max(e.begin, mine.begin), f = std::min(e.end, mine.end);
    for (int r = 0; b < f && r < parts_; ++r) keep.push_back({r * slot + b - mine.begin, r * slot + f - mine.begin});
  }
  return std::make_unique<HostBuffer>(n, keep);
}

Pipeline::~Pipeline() {
  for (auto* list : {&to_owner_, &from_peer_})
    for (PRequest& r : *list)
      if (r) pfree(&r);
}

void Pipeline::stream() {
  SMPI_thread_create();  // this actor may now make MPI calls as the rank
  for (int k = 0; k < parts_; ++k) {
    compute(ctx_, call_.flops_per_element * static_cast<double>(part(k).count()), k);
    sg4::this_actor::sleep_for(ctx_.pf.callback_latency);  // the callback starts
    copy_to_host(ctx_, part(k).bytes(), k);
    produce(call_.data, part(k), ctx_.rank, call_.rep);
    if (k == own_)
      own_copied_->release();
    else if (pready(0, to_owner_[k]) != MPI_SUCCESS)
      error_ = "pready failed for partition " + std::to_string(k);
  }
  for (int k = 0; k < parts_; ++k)
    if (k != own_ && pwait(to_owner_[k]) != MPI_SUCCESS) error_ = "send of partition " + std::to_string(k) + " failed";
}

void Pipeline::reduce() {
  own_copied_->acquire();
  const Timed timed(ctx_, Phase::reduce, own_);
  const Elements mine = part(own_);
  double* own = call_.data + mine.begin;
  const int64_t slot = part(0).count();
  for (int r = 0; r < parts_; ++r) {
    if (r == own_) continue;
    if (pwait(from_peer_[r]) != MPI_SUCCESS) error_ = "contribution of socket rank " + std::to_string(r) + " failed";
    const double* in = slots_->data() + r * slot;
    for (int64_t i = 0; i < mine.count(); ++i) own[i] += in[i];
    charge_reduction(static_cast<double>(mine.bytes()));
  }
}

void Pipeline::allreduce_across_sockets() {
  const Timed timed(ctx_, Phase::allreduce, own_);
  const Elements mine = part(own_);
  allreduce_sum(MPI_IN_PLACE, call_.data + mine.begin, mine.count(), ctx_.socket_lane);
}

void Pipeline::rebuild() {
  const Timed timed(ctx_, Phase::allgather);
  std::vector<int> counts(parts_), displs(parts_);
  for (int k = 0; k < parts_; ++k) {
    counts[k] = static_cast<int>(part(k).count());
    displs[k] = static_cast<int>(part(k).begin);
  }
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, call_.data, counts.data(), displs.data(), MPI_DOUBLE,
                 ctx_.socket_comm);
}

void Pipeline::check() const {
  if (!error_.empty()) throw std::runtime_error("pr: " + error_);
}

}  // namespace

void run_pr(const GpuCall& call) {
  copy_to_device(call.ctx, 8 * call.elements);
  Pipeline pipeline(call);
  sg4::ActorPtr stream = sg4::Actor::create("gpu-stream", call.ctx.host, [&pipeline] { pipeline.stream(); });
  pipeline.reduce();
  pipeline.allreduce_across_sockets();
  // Fig. 2's gpu_synchronize: every kernel done, every partition copied and sent.
  stream->join();
  pipeline.rebuild();
  pipeline.check();
}

}  // namespace collsim::sim::gpu
