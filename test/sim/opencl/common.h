/* Shared helpers for the simulator's reference kernels: no ROCm device libraries, so ids,
 * barriers and the code object v5 hidden arguments come from clang's AMDGPU builtins. */
#define GROUP_ID_X() ((long)__builtin_amdgcn_workgroup_id_x())
#define GROUP_ID_Y() ((long)__builtin_amdgcn_workgroup_id_y())
#define LOCAL_ID_X() ((long)__builtin_amdgcn_workitem_id_x())
#define LOCAL_ID_Y() ((long)__builtin_amdgcn_workitem_id_y())
/* Code object v5 hidden arguments: hidden_block_count_x at 0, hidden_group_size_x (u16) at 12. */
#define BLOCK_COUNT_X() ((long)((__constant uint *)__builtin_amdgcn_implicitarg_ptr())[0])
#define GROUP_SIZE_X() ((long)((__constant ushort *)__builtin_amdgcn_implicitarg_ptr())[6])
#define WORKGROUP_BARRIER()                                   \
  do {                                                        \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");    \
    __builtin_amdgcn_s_barrier();                             \
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");    \
  } while (0)
