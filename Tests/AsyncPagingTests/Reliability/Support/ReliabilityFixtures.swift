import AsyncPaging

/// Every value a stream still holds or will get, once it has finished.
func collect<Element>(_ stream: AsyncStream<Element>) async -> [Element] {
    var values: [Element] = []
    for await value in stream { values.append(value) }
    return values
}
