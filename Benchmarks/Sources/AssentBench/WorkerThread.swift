import Glibc

/// An OS thread running one closure, joined explicitly. Each benchmark connection
/// gets its own, so a blocking socket call never waits on another connection.
final class WorkerThread {
    private var thread: pthread_t
    private var joined = false

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    init(_ body: @escaping @Sendable () -> Void) throws(BenchError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .io("pthread_create", errno: result)
        }
        self.thread = thread
    }

    func join() {
        guard !joined else { return }
        pthread_join(thread, nil)
        joined = true
    }

    deinit { join() }
}
