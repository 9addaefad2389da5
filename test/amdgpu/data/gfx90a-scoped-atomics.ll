; selection.loom's scoped_atomics as LLVM IR, one atomic per loom op in the same order:
; llc-19 -mcpu=gfx90a gives the cache operations test/amdgpu/gfx90a-atomics.test.ts expects of
; loom's code (read-modify-writes on coarse-grained memory, as loom assumes; no atomic optimizer).
define amdgpu_kernel void @scoped_atomics(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %i) {
  %base = mul i64 %i, 4
  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 %base
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i64 1
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i64 2
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i64 3
  %x = load atomic i32, ptr addrspace(1) %p0 syncscope("agent") acquire, align 4
  %pa = getelementptr i32, ptr addrspace(1) %a, i64 %i
  %xa = load i32, ptr addrspace(1) %pa, align 4
  %old = atomicrmw add ptr addrspace(1) %p1, i32 %xa syncscope("agent") acq_rel, !amdgpu.no.fine.grained.memory !0
  %sum = add i32 %old, %x
  store atomic i32 %sum, ptr addrspace(1) %p2 release, align 4
  %c = cmpxchg ptr addrspace(1) %p0, i32 %x, i32 %xa seq_cst acquire
  %seen = extractvalue { i32, i1 } %c, 0
  %r = atomicrmw max ptr addrspace(1) %p3, i32 %seen release, !amdgpu.no.fine.grained.memory !0, !amdgpu.no.remote.memory !0
  %y = load atomic i32, ptr addrspace(1) %p3 monotonic, align 4
  store atomic i32 %y, ptr addrspace(1) %p2 syncscope("agent") seq_cst, align 4
  ret void
}
!0 = !{}
