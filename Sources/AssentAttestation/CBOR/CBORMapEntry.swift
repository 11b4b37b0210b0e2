/// A key and its value in a ``CBORValue/map(_:)``.
package struct CBORMapEntry: Sendable, Hashable {
    package let key: CBORValue
    package let value: CBORValue

    package init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
