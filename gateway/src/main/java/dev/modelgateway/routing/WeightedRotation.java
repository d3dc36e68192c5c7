package dev.modelgateway.routing;

import java.util.List;

/**
 * Smooth weighted round-robin (as nginx's upstream module spreads requests): each pick adds every candidate's weight
 * to its running score, takes the highest and subtracts the candidates' total from it. Over any run of picks each
 * candidate's share equals its weight's share exactly (3:1 is A A B A…), with the picks spread out rather than in
 * bursts, and no candidate is preferred for being first (LiteLLM's least-busy strategy always picked the first,
 * #37622). Candidates out of rotation are left out of a pick and keep their score. One per public model, shared by the
 * event loops.
 */
final class WeightedRotation {
    private final List<Deployment> deployments;
    private final double[] score;

    WeightedRotation(List<Deployment> deployments) {
        this.deployments = List.copyOf(deployments);
        this.score = new double[deployments.size()];
    }

    /** @param eligible which deployments may take this call, by index; at least one is */
    synchronized Deployment next(boolean[] eligible) {
        double total = 0;
        int best = -1;
        for (int i = 0; i < score.length; i++) {
            if (!eligible[i]) continue;
            double w = deployments.get(i).weight();
            score[i] += w;
            total += w;
            if (best < 0 || score[i] > score[best]) best = i;
        }
        score[best] -= total;
        return deployments.get(best);
    }
}
