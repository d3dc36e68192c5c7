package dev.modelgateway.canonical;

public enum MediaKind { IMAGE, DOCUMENT, AUDIO }
