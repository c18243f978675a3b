import Foundation
import Hummingbird

/// The request context of the service's routes: Hummingbird's basic context, with a JSON
/// encoder that sorts keys, so that every answer of one shape has its keys in one order.
public struct FeedRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage

    /// Creates the context of a request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// A JSON encoder with sorted keys.
    public var responseEncoder: JSONEncoder { Self.makeEncoder() }

    /// The encoder of every JSON body of the service, server-sent events included: keys sorted.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
