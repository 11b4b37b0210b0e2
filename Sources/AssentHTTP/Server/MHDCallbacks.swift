internal import CHTTPShims

/// The C callback table handed to libmicrohttpd.
///
/// Each entry is a capture-free, nonisolated closure (libmicrohttpd calls them
/// on its own worker threads) that recovers the ``ServerCore`` from the
/// context pointer, an unretained reference kept alive by ``HTTPServer``
/// until the daemon has stopped.
enum MHDCallbacks {
    static func table(context: UnsafeMutableRawPointer) -> assent_http_callbacks {
        assent_http_callbacks(
            context: context,
            request_started: { context, target, _ in
                MHDCallbacks.core(context).requestStarted(target: target)
            },
            access: { context, connection, _, method, uploadData, uploadSize, requestContext in
                MHDCallbacks.core(context).access(
                    connection: connection,
                    uploadData: uploadData,
                    uploadSize: uploadSize,
                    context: requestContext,
                    method: method
                ) ? 1 : 0
            },
            request_completed: { context, _, requestContext, termination in
                MHDCallbacks.core(context).requestCompleted(context: requestContext, termination: termination)
            },
            connection_changed: { context, opened in
                MHDCallbacks.core(context).connectionChanged(opened: opened != 0)
            },
            log_message: { context, message in
                MHDCallbacks.core(context).libraryMessage(message)
            }
        )
    }

    private static func core(_ context: UnsafeMutableRawPointer?) -> ServerCore {
        Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    }
}
