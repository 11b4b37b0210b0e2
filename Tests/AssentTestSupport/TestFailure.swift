/// A test fixture that could not do its job (a process that would not start, output that was not JSON), with a
/// message saying what happened.
package struct TestFailure: Error, CustomStringConvertible {
    package let description: String

    /// A failure described by `description`.
    package init(_ description: String) { self.description = description }
}
