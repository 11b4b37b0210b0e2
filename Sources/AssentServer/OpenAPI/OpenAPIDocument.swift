/// The OpenAPI 3.1 document of the API, `openapi/assent.json` compiled into the server (SwiftPM `embedInCode`), so
/// `GET /openapi.json` needs no file at run time. `scripts/openapi_gen.py` writes the file; `OpenAPIDocumentTests`
/// keeps its paths and the endpoint catalogue in step.
package enum OpenAPIDocument {
    /// The document's JSON bytes, as committed.
    package static var json: [UInt8] { PackageResources.assent_json }
}
