// Stub of the Security API Assent calls, written from Apple's documentation pages (for a Linux typecheck only).
import Foundation
public typealias OSStatus = Int32
public typealias CFTypeRef = AnyObject
public typealias CFDictionary = [String: Any]
public final class CFString {}
public final class CFAllocator {}
public final class CFError {}
public final class SecAccessControl {}
public final class SecRandom {}
public let errSecSuccess: OSStatus = 0
public let errSecItemNotFound: OSStatus = -25300
public let errSecParam: OSStatus = -50
public let kSecClass: String = "class"
public let kSecClassGenericPassword = CFString()
public let kSecAttrService: String = "svce"
public let kSecAttrAccount: String = "acct"
public let kSecAttrAccessGroup: String = "agrp"
public let kSecAttrAccessible: String = "pdmn"
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly = CFString()
public let kSecUseDataProtectionKeychain: String = "nleg"
public let kSecReturnData: String = "r_Data"
public let kSecMatchLimit: String = "m_Limit"
public let kSecMatchLimitOne = CFString()
public let kSecValueData: String = "v_Data"
public let kSecRandomDefault: SecRandom? = nil
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { 0 }
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { 0 }
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { 0 }
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 { 0 }
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
}
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? { nil }
