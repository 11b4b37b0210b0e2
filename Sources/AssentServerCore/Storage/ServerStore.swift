/// Everything `assentd` keeps: the core ``Store`` together with its PowerAuth part (``ActivationStore``) and its push
/// delivery part (``PushDeliveryStore``). Both backends are one — ``SQLiteStore`` and ``PostgresStore`` — and
/// ``DatabaseLocation/open(connections:)`` hands back this, so the application, the CLI and the tests use either
/// store for everything.
package typealias ServerStore = Store & ActivationStore & PushDeliveryStore
