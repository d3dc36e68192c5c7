package dev.modelgateway.canonical;

/** Message roles. SYSTEM appears inside the conversation only for system text that is not at its start. */
public enum Role { USER, ASSISTANT, SYSTEM }
