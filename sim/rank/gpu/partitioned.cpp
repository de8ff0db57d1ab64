#include "partitioned.hpp"

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include <algorithm>
#include <mutex>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace collsim::sim::gpu {

struct PartitionedChannel {
  bool send = false;
  bool active = false;
  std::vector<MPI_Request> parts;  // persistent, one per partition
  std::vector<char> done;          // sender: marked ready; receiver: seen arrived by parrived
  int count = 0;                   // elements per partition
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool mismatch = false;           // a partition arrived with another size
  // pwait on the sender sleeps here until the last pready.
  sg4::MutexPtr mutex = sg4::Mutex::create();
  sg4::ConditionVariablePtr ready_cv = sg4::ConditionVariable::create();
};

long long partition_tag(long long tag, long long partition, long long tag_ub) {
  const long long s = tag + partition;
  if (tag < 0 || partition < 0 || s > 3037000000LL) return -1;  // s(s+1)/2 must not overflow
  const long long t = s * (s + 1) / 2 + partition;
  return t <= tag_ub ? t : -1;
}

namespace {

long long tag_upper_bound(MPI_Comm comm) {
  int* ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag);
  return flag && ub ? *ub : 32767;  // 32767: the least upper bound MPI guarantees
}

int init(bool send, void* buf, int partitions, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
         PRequest* request) {
  if (partitions < 1 || count < 0 || !request) return MPI_ERR_ARG;
  const long long ub = tag_upper_bound(comm);
  if (partition_tag(tag, partitions - 1, ub) < 0) return MPI_ERR_ARG;
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  auto* ch = new PartitionedChannel;
  ch->send = send;
  ch->parts.resize(static_cast<size_t>(partitions), MPI_REQUEST_NULL);
  ch->done.assign(static_cast<size_t>(partitions), 0);
  ch->count = count;
  ch->type = type;
  for (int i = 0; i < partitions; ++i) {
    char* at = static_cast<char*>(buf) + static_cast<MPI_Aint>(i) * count * extent;
    const int t = static_cast<int>(partition_tag(tag, i, ub));
    const int rc = send ? MPI_Send_init(at, count, type, peer, t, comm, &ch->parts[i])
                        : MPI_Recv_init(at, count, type, peer, t, comm, &ch->parts[i]);
    if (rc != MPI_SUCCESS) {
      pfree(&ch);
      return rc;
    }
  }
  *request = ch;
  return MPI_SUCCESS;
}

// Notes a receive whose size is not one partition (the sender partitioned differently).
void check(PRequest r, const MPI_Status& status) {
  int got = 0;
  MPI_Get_count(&status, r->type, &got);
  if (got != r->count) r->mismatch = true;
}

bool valid(PRequest r, int partition) {
  return r && partition >= 0 && partition < static_cast<int>(r->parts.size());
}

}  // namespace

int psend_init(const void* buf, int partitions, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               PRequest* request) {
  // MPI_Send_init takes a const buffer; one init function serves both sides.
  return init(true, const_cast<void*>(buf), partitions, count, type, dest, tag, comm, request);
}

int precv_init(void* buf, int partitions, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               PRequest* request) {
  return init(false, buf, partitions, count, type, source, tag, comm, request);
}

int pstart(PRequest r) {
  if (!r || r->active) return MPI_ERR_REQUEST;
  r->active = true;
  std::fill(r->done.begin(), r->done.end(), 0);
  return r->send ? MPI_SUCCESS : MPI_Startall(static_cast<int>(r->parts.size()), r->parts.data());
}

int pready(int partition, PRequest r) {
  if (!valid(r, partition)) return MPI_ERR_ARG;
  if (!r->send || !r->active || r->done[partition]) return MPI_ERR_REQUEST;
  r->done[partition] = 1;
  const int rc = MPI_Start(&r->parts[partition]);
  const std::lock_guard<sg4::Mutex> lock(*r->mutex);
  r->ready_cv->notify_all();
  return rc;
}

int pready_range(int low, int high, PRequest r) {
  if (!valid(r, low) || !valid(r, high) || low > high) return MPI_ERR_ARG;
  for (int i = low; i <= high; ++i)
    if (const int rc = pready(i, r); rc != MPI_SUCCESS) return rc;
  return MPI_SUCCESS;
}

int parrived(PRequest r, int partition, int* flag) {
  if (!valid(r, partition) || !flag) return MPI_ERR_ARG;
  if (r->send || !r->active) return MPI_ERR_REQUEST;
  if (!r->done[partition]) {
    int arrived = 0;
    MPI_Status status;
    const int rc = MPI_Test(&r->parts[partition], &arrived, &status);
    if (rc != MPI_SUCCESS) return rc;
    if (arrived) check(r, status);
    r->done[partition] = static_cast<char>(arrived);
  }
  *flag = r->done[partition];
  return MPI_SUCCESS;
}

int pwait(PRequest r) {
  if (!r || !r->active) return MPI_ERR_REQUEST;
  if (r->send) {
    std::unique_lock<sg4::Mutex> lock(*r->mutex);
    for (size_t i = 0; i < r->done.size(); ++i)
      while (!r->done[i]) r->ready_cv->wait(lock);
  }
  for (size_t i = 0; i < r->parts.size(); ++i) {
    if (!r->send && r->done[i]) continue;  // completed (and checked) by parrived
    MPI_Status status;
    if (const int rc = MPI_Wait(&r->parts[i], &status); rc != MPI_SUCCESS) return rc;
    if (!r->send) check(r, status);
  }
  r->active = false;
  const bool mismatch = r->mismatch;
  r->mismatch = false;
  return mismatch ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

int pfree(PRequest* request) {
  if (!request || !*request || (*request)->active) return MPI_ERR_REQUEST;
  for (MPI_Request& part : (*request)->parts)
    if (part != MPI_REQUEST_NULL) MPI_Request_free(&part);
  delete *request;
  *request = nullptr;
  return MPI_SUCCESS;
}

}  // namespace collsim::sim::gpu
