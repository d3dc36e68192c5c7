package dev.modelgateway.catalogue;

/** What a model does; decides which endpoints accept it. */
public enum ModelKind {
    CHAT, EMBEDDING, IMAGE, AUDIO, REALTIME
}
