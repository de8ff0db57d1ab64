// MPI-4 partitioned point-to-point (MPI_Psend_init, MPI_Precv_init,
// MPI_Pready, MPI_Parrived, with MPI_Start / MPI_Wait / MPI_Request_free on
// the partitioned request), which SMPI 3.32 only stubs, built on persistent
// point-to-point: partition i of a channel is one persistent send or receive
// of `count` elements at offset i·count.
//
//   psend_init / precv_init  one MPI_Send_init / MPI_Recv_init per partition
//                            (local, no communication, no simulated time)
//   pstart                   receiver: MPI_Startall of its partitions;
//                            sender: forgets which partitions were ready
//   pready(i)                MPI_Start of partition i's send
//   parrived(i)              MPI_Test of partition i's receive
//   pwait                    sender: blocks until every partition is ready
//                            (another actor may call pready meanwhile), then
//                            waits for all sends; receiver: waits for all
//   pfree                    MPI_Request_free of every partition
//
// Pready may come from a helper actor of the rank (a simulated thread, after
// SMPI_thread_create): the persistent send was created by the rank, so SMPI
// stamps the message with the rank and receives naming it match.
//
// Limits and deviations from MPI-4:
//  - sender and receiver must use the same partitioning (MPI-4 allows any
//    two whose total sizes agree): with fewer partitions on the sender the
//    receiver's pwait never returns (an unmatched receive); with as many
//    partitions of another size it returns MPI_ERR_TRUNCATE;
//  - partition i travels with tag cantor(tag, i) = (tag+i)(tag+i+1)/2 + i
//    on `comm`, unique over all (tag, i), so channels with different tags
//    never cross; keep other traffic on those tags off `comm`;
//  - calls return MPI error codes (MPI_ERR_ARG: bad partition or tag;
//    MPI_ERR_REQUEST: wrong side, inactive request, pready twice).
// Memory: one MPI_Request and two flags per partition.
#pragma once

#include <mpi.h>

namespace collsim::sim::gpu {

struct PartitionedChannel;
using PRequest = PartitionedChannel*;

int psend_init(const void* buf, int partitions, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               PRequest* request);
int precv_init(void* buf, int partitions, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               PRequest* request);
int pstart(PRequest request);
int pready(int partition, PRequest request);
int pready_range(int low, int high, PRequest request);  // partitions low..high, inclusive
int parrived(PRequest request, int partition, int* flag);
int pwait(PRequest request);
int pfree(PRequest* request);  // sets *request to nullptr

// The tag that partition i of a channel with tag `tag` travels with; -1 if
// it exceeds `tag_ub`.
long long partition_tag(long long tag, long long partition, long long tag_ub);

}  // namespace collsim::sim::gpu
