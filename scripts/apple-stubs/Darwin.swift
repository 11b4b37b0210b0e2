// Stub of libc's timingsafe_bcmp(3) (Linux typecheck only).
public func timingsafe_bcmp(_ b1: UnsafeRawPointer!, _ b2: UnsafeRawPointer!, _ len: Int) -> Int32 { 0 }
