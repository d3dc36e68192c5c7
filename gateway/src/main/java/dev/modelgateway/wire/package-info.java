/**
 * Pure codecs, one sub-package per wire format, each holding both directions, its usage reader, its errors,
 * its native tap and its model rules; here the ports (InboundCodec, VendorCodec, StreamEncoder,
 * StreamDecoder, StreamTap, NativeFormat), the registries (Codecs, CallerProtocol, Operations), and the operations of
 * the endpoints without platform_options as data (VendorOperation, OperationRequest, OperationAnswer, VendorErrors;
 * VendorJson, the one check of a vendor's JSON answer).
 *
 * <p>May import canonical, catalogue, config, error, json, sse; never upstream, call, endpoint, http or server.
 * Pure: no I/O (LayoutTest).
 */
package dev.modelgateway.wire;
